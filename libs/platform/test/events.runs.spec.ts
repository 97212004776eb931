import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@shiliu/contracts';
import pino from 'pino';
import type { DataSource, EntityManager, MigrationInterface, QueryRunner } from 'typeorm';
import { beforeRunEnds, createServiceDataSource, EventDispatcher, migrate, NewestWrites, schemaOf, TableDeadLetterSink } from '../src';
import { requireEnv } from '../src/testing';

class Handled1763780000002 implements MigrationInterface {
  name = 'Handled1763780000002';
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "${schemaOf(queryRunner)}"."handled" ("position" bigserial, "seq" int NOT NULL, "tx" bigint NOT NULL DEFAULT txid_current())`);
    await queryRunner.query(`CREATE TABLE "${schemaOf(queryRunner)}"."newest" ("id" int PRIMARY KEY, "value" int NOT NULL, "as_of" timestamptz NOT NULL)`);
  }
  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "${schemaOf(queryRunner)}"."newest"`);
    await queryRunner.query(`DROP TABLE "${schemaOf(queryRunner)}"."handled"`);
  }
}

const envelope = (seq: number): EventEnvelope<{ seq: number }> => {
  const id = randomUUID();
  return { id, type: 'fixture.run', version: 1, occurredAt: new Date().toISOString(), actor: null, correlationId: id, causationId: id, payload: { seq } };
};

/** A run of events that waited together (one Kafka batch of a partition), through the dispatcher with the real PostgreSQL. */
describe('a run of events through the dispatcher', () => {
  const schema = `fx_runs_${randomUUID().slice(0, 8)}`;
  let dataSource: DataSource;
  let dispatcher: EventDispatcher;

  const record = (seq: number) => async (manager: EntityManager) => {
    await manager.query(`INSERT INTO "handled" ("seq") VALUES ($1)`, [seq]);
  };
  const fail = async () => {
    throw new Error('this handler always fails');
  };
  const handled = async () => (await dataSource.query(`SELECT "seq", "tx" FROM "handled" ORDER BY "position"`)) as { seq: number; tx: string }[];

  beforeAll(async () => {
    dataSource = createServiceDataSource({ url: requireEnv('DATABASE_URL'), schema, entities: [], migrations: [Handled1763780000002] });
    await dataSource.initialize();
    await migrate(dataSource);
    const retry = { attempts: 2, baseDelayMs: 1, maxDelayMs: 1, transientLimitMs: 1000 };
    dispatcher = new EventDispatcher(schema, dataSource, new TableDeadLetterSink(dataSource), pino({ level: 'silent' }), retry);
  });

  afterAll(async () => {
    await dataSource?.query(`DROP SCHEMA "${schema}" CASCADE`);
    await dataSource?.destroy();
  });

  beforeEach(async () => {
    await dataSource.query(`TRUNCATE "handled", "newest", "inbox", "dead_letters"`);
  });

  it('handles a run in order in one transaction, and a redelivered run changes nothing', async () => {
    const run = [1, 2, 3, 4, 5].map((seq) => ({ envelope: envelope(seq), handle: record(seq) }));

    expect(await dispatcher.dispatchAll(run)).toEqual(['handled', 'handled', 'handled', 'handled', 'handled']);
    const rows = await handled();
    expect(rows.map((row) => row.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(new Set(rows.map((row) => row.tx)).size).toBe(1);

    expect(await dispatcher.dispatchAll(run)).toEqual(['duplicate', 'duplicate', 'duplicate', 'duplicate', 'duplicate']);
    expect((await handled()).map((row) => row.seq)).toEqual([1, 2, 3, 4, 5]);
  });

  it('handles an event once although it comes twice in a run, and leaves one handled before alone', async () => {
    const before = envelope(1);
    await dispatcher.dispatchAll([{ envelope: before, handle: record(1) }]);
    const twice = { ...envelope(2), id: randomUUID().toUpperCase() };
    const run = [
      { envelope: before, handle: record(1) },
      { envelope: twice, handle: record(2) },
      { envelope: twice, handle: record(2) },
      { envelope: envelope(3), handle: record(3) },
    ];

    expect(await dispatcher.dispatchAll(run)).toEqual(['duplicate', 'handled', 'duplicate', 'handled']);
    expect((await handled()).map((row) => row.seq)).toEqual([1, 2, 3]);
  });

  it('parks only the event that fails, and handles its neighbours in order', async () => {
    const failing = envelope(2);
    const run = [
      { envelope: envelope(1), handle: record(1) },
      { envelope: failing, handle: fail },
      { envelope: envelope(3), handle: record(3) },
    ];

    expect(await dispatcher.dispatchAll(run)).toEqual(['handled', 'dead-lettered', 'handled']);
    expect((await handled()).map((row) => row.seq)).toEqual([1, 3]);
    expect(await dataSource.query(`SELECT "event_id", "reason", "error" FROM "dead_letters"`)).toEqual([
      { event_id: failing.id, reason: 'handler-failed', error: 'Error: this handler always fails' },
    ]);
    const inbox: { event_id: string }[] = await dataSource.query(`SELECT "event_id" FROM "inbox"`);
    expect(inbox.map((row) => row.event_id).sort()).toEqual([run[0].envelope.id, run[2].envelope.id].sort());
  });

  it('writes what a run gathered once, after its last handler and in its transaction; a transaction outside a run writes at once', async () => {
    let gathered: number[] = [];
    const write = async (manager: EntityManager) => {
      await manager.query(`INSERT INTO "handled" ("seq") SELECT unnest($1::int[])`, [gathered]);
      gathered = [];
    };
    const gather = (seq: number) => async (manager: EntityManager) => {
      if (!beforeRunEnds(manager, write)) throw new Error('not in a run');
      gathered.push(seq * 10);
      await record(seq)(manager);
    };
    const run = [1, 2, 3].map((seq) => ({ envelope: envelope(seq), handle: gather(seq) }));

    expect(await dispatcher.dispatchAll(run)).toEqual(['handled', 'handled', 'handled']);
    const rows = await handled();
    expect(rows.map((row) => row.seq)).toEqual([1, 2, 3, 10, 20, 30]);
    expect(new Set(rows.map((row) => row.tx)).size).toBe(1);
    expect(await dataSource.transaction(async (manager) => beforeRunEnds(manager, write))).toBe(false);
  });

  describe('newest writes', () => {
    interface Value {
      id: number;
      value: number;
      asOf: string;
    }
    const at = (second: number) => new Date(Date.UTC(2026, 10, 26, 10, 0, second)).toISOString();
    let writes: Value[][] = [];
    const newest = new NewestWrites<Value>(
      (row) => String(row.id),
      (row) => row.asOf,
      async (manager, rows) => {
        writes.push(rows);
        await manager.query(
          `INSERT INTO "newest" ("id", "value", "as_of") SELECT * FROM unnest($1::int[], $2::int[], $3::timestamptz[])
           ON CONFLICT ("id") DO UPDATE SET "value" = EXCLUDED."value", "as_of" = EXCLUDED."as_of" WHERE "newest"."as_of" <= EXCLUDED."as_of"`,
          [rows.map((row) => row.id), rows.map((row) => row.value), rows.map((row) => row.asOf)],
        );
      },
    );
    const table = async () => (await dataSource.query(`SELECT "id", "value" FROM "newest" ORDER BY "id"`)) as { id: number; value: number }[];

    beforeEach(() => {
      writes = [];
    });

    it('keeps the newest value of each row a run sets, whatever order the events come in, and writes them once', async () => {
      const sets: Value[] = [
        { id: 1, value: 1, asOf: at(1) },
        { id: 1, value: 3, asOf: at(3) },
        { id: 2, value: 7, asOf: at(1) },
        { id: 1, value: 2, asOf: at(2) },
        { id: 2, value: 8, asOf: at(1) },
      ];
      const run = sets.map((value, i) => ({ envelope: envelope(i), handle: (manager: EntityManager) => newest.set(manager, value) }));

      expect(await dispatcher.dispatchAll(run)).toEqual(['handled', 'handled', 'handled', 'handled', 'handled']);
      expect(writes).toEqual([[{ id: 1, value: 3, asOf: at(3) }, { id: 2, value: 8, asOf: at(1) }]]);
      expect(await table()).toEqual([{ id: 1, value: 3 }, { id: 2, value: 8 }]);

      // An older value in a later run gives way to the newer one already in the table.
      await dispatcher.dispatchAll([{ envelope: envelope(9), handle: (manager) => newest.set(manager, { id: 1, value: 0, asOf: at(2) }) }]);
      expect(await table()).toEqual([{ id: 1, value: 3 }, { id: 2, value: 8 }]);
    });

    it('writes at once outside a run, and on flush inside one', async () => {
      await dataSource.transaction((manager) => newest.set(manager, { id: 1, value: 5, asOf: at(1) }));
      expect(writes).toHaveLength(1);
      expect(await table()).toEqual([{ id: 1, value: 5 }]);

      let seen: unknown;
      const run = [
        { envelope: envelope(1), handle: (manager: EntityManager) => newest.set(manager, { id: 1, value: 6, asOf: at(2) }) },
        {
          envelope: envelope(2),
          handle: async (manager: EntityManager) => {
            await newest.flush(manager);
            seen = await manager.query(`SELECT "value" FROM "newest" WHERE "id" = 1`);
          },
        },
      ];
      await dispatcher.dispatchAll(run);
      expect(seen).toEqual([{ value: 6 }]);
      expect(writes).toHaveLength(2);
    });
  });
});
