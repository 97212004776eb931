interface Queryable {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

/**
 * Rows of any statement. TypeORM answers UPDATE and DELETE (also with RETURNING) as `[rows, rowCount]` and
 * everything else as the rows alone; this evens that out (a row is an object, never an array, so the two
 * shapes cannot be confused).
 */
export async function rowsOf<T>(runner: Queryable, sql: string, params: unknown[] = []): Promise<T[]> {
  const result = await runner.query(sql, params);
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number') return result[0] as T[];
  return result as T[];
}
