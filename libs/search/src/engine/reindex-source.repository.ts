import { rowsOf } from '@shiliu/platform';
import type { DataSource } from 'typeorm';
import type { PostRow } from '../posts/post.repository';
import type { UserRow } from '../users/user.repository';
import type { IndexKind } from './elasticsearch.engine';

export type ReadModelRow = PostRow & UserRow;

const TABLES: Record<IndexKind, { table: 'posts' | 'users'; indexed: string }> = {
  posts: { table: 'posts', indexed: `"published" AND NOT "deleted"` },
  users: { table: 'users', indexed: `"registered" AND NOT "deleted"` },
};

/** The read model as a re-index reads it: what belongs in one index, in id order, and what changed since a point. */
export class ReindexSourceRepository {
  private readonly table: string;
  private readonly indexed: string;

  constructor(
    private readonly dataSource: DataSource,
    kind: IndexKind,
  ) {
    ({ table: this.table, indexed: this.indexed } = TABLES[kind]);
  }

  /** The newest change's number: whatever changes after it is applied again once the alias has moved. */
  async lastChange(): Promise<string> {
    const [{ last }] = await rowsOf<{ last: string }>(this.dataSource, `SELECT last_value AS "last" FROM "changes"`);
    return last;
  }

  async countIndexed(): Promise<number> {
    const [{ total }] = await rowsOf<{ total: number }>(this.dataSource, `SELECT count(*)::int AS "total" FROM "${this.table}" WHERE ${this.indexed}`);
    return total;
  }

  indexedAfter(id: string, limit: number): Promise<ReadModelRow[]> {
    return rowsOf(this.dataSource, `SELECT * FROM "${this.table}" WHERE ${this.indexed} AND "id" > $1 ORDER BY "id" LIMIT ${limit}`, [id]);
  }

  changedAfter(seq: string, limit: number): Promise<ReadModelRow[]> {
    return rowsOf(this.dataSource, `SELECT * FROM "${this.table}" WHERE "seq" > $1 ORDER BY "seq" LIMIT ${limit}`, [seq]);
  }
}
