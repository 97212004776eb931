import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { pgPoolOf } from './data-source';

/** A statement whose text never changes, named after that text: one name, one text, on every connection. */
export interface PreparedStatement {
  readonly name: string;
  readonly text: string;
}

export function prepared(text: string): PreparedStatement {
  return { name: `shiliu_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`, text };
}

/**
 * Runs a read a service makes constantly as a named statement on the data source's own pool (TypeORM's `query`
 * cannot name one): PostgreSQL parses it once per connection, and plans it once too where a generic plan is as good
 * as one for the values given. A read by one id gains most; a read by an array of ids is still planned for each
 * call's values, so it saves the parsing but not the planning (measured by bench/hot-paths; see bench/README.md).
 */
export async function preparedRows<T>(dataSource: DataSource, statement: PreparedStatement, params: unknown[]): Promise<T[]> {
  const pool = pgPoolOf(dataSource);
  if (!pool) throw new Error('preparedRows needs an initialised data source');
  return (await pool.query({ name: statement.name, text: statement.text, values: params })).rows as T[];
}
