import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { createServiceDataSource, prepared, preparedRows } from '../src';
import { requireEnv } from '../src/testing';

/** Reads run as named statements on the service's own pool, inside its schema, planned once per connection. */
describe('prepared statements', () => {
  const schema = `fx_prepared_${randomUUID().slice(0, 8)}`;
  let dataSource: DataSource;

  beforeAll(async () => {
    dataSource = createServiceDataSource({ url: requireEnv('DATABASE_URL'), schema, entities: [], migrations: [], poolSize: 1 });
    await dataSource.initialize();
    await dataSource.query(`CREATE SCHEMA "${schema}"`);
    await dataSource.query(`CREATE TABLE "${schema}"."notes" ("id" bigint PRIMARY KEY, "title" text NOT NULL)`);
    await dataSource.query(`INSERT INTO "${schema}"."notes" VALUES (1, '一'), (2, '二'), (3, '三')`);
  });

  afterAll(async () => {
    await dataSource?.query(`DROP SCHEMA "${schema}" CASCADE`);
    await dataSource?.destroy();
  });

  it('names a statement after its text, so one name never stands for two texts', () => {
    const byId = `SELECT "title" FROM "notes" WHERE "id" = ANY($1::bigint[]) ORDER BY "id"`;
    expect(prepared(byId)).toEqual(prepared(byId));
    expect(prepared(byId).name).not.toBe(prepared(`${byId} DESC`).name);
  });

  it('answers rows as TypeORM would, from the service schema, and prepares the statement once on the connection', async () => {
    const titles = prepared(`SELECT "id", "title" FROM "notes" WHERE "id" = ANY($1::bigint[]) ORDER BY "id"`);
    expect(await preparedRows(dataSource, titles, [[1, 3]])).toEqual(await dataSource.query(titles.text, [[1, 3]]));
    expect(await preparedRows(dataSource, titles, [[2]])).toEqual([{ id: '2', title: '二' }]);
    // One connection in the pool: what it has prepared is what this data source's reads prepared.
    const kept = await dataSource.query(`SELECT "name", "statement" FROM pg_prepared_statements`);
    expect(kept).toEqual([{ name: titles.name, statement: titles.text }]);
  });
});
