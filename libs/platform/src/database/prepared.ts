import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';

/** A statement whose text never changes, named after that text: one name, one text, on every connection. */
export interface PreparedStatement {
  readonly name: string;
  readonly text: string;
}

export function prepared(text: string): PreparedStatement {
  return { name: `shiliu_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`, text };
}

interface PgPool {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

/**
 * Runs a read a service makes constantly as a named statement on the data source's own pool: PostgreSQL parses and
 * plans it once per connection instead of on every call. For the note detail that was two thirds of its cost
 * (1,670 against 5,500 a second, bench/hot-paths), and TypeORM's `query` cannot name a statement.
 */
export async function preparedRows<T>(dataSource: DataSource, statement: PreparedStatement, params: unknown[]): Promise<T[]> {
  const pool = (dataSource.driver as unknown as { master: PgPool }).master;
  return (await pool.query({ name: statement.name, text: statement.text, values: params })).rows as T[];
}
