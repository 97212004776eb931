import { randomUUID } from 'node:crypto';
import { defineEvent } from '@shiliu/contracts';
import pino from 'pino';
import type { DataSource } from 'typeorm';
import { createServiceDataSource, type EventPublisher, migrate, Outbox, OutboxRelay, type OutboxRecord } from '../src';
import { requireEnv, waitFor } from '../src/testing';

const noted = defineEvent<{ seq: number }>({ type: 'fixture.noted', version: 1, topic: 'shiliu.fixture', key: (p) => String(p.seq) });

/** Records what the relay hands it, as Kafka or the in-process bus would take it. */
class RecordingPublisher implements EventPublisher {
  readonly transport = 'recording';
  readonly published: OutboxRecord[] = [];
  async publish(records: OutboxRecord[]): Promise<void> {
    this.published.push(...records);
  }
  ready(): boolean {
    return true;
  }
  async close(): Promise<void> {}
}

describe('the outbox relay', () => {
  const schema = `fx_relay_${randomUUID().slice(0, 8)}`;
  let dataSource: DataSource;
  let relay: OutboxRelay;
  const publisher = new RecordingPublisher();

  beforeAll(async () => {
    dataSource = createServiceDataSource({ url: requireEnv('DATABASE_URL'), schema, entities: [], migrations: [] });
    await dataSource.initialize();
    await migrate(dataSource);
    // Neither NOTIFY nor the poll (an hour apart) can wake this relay: only the commit in this process can.
    await dataSource.query(`DROP TRIGGER "outbox_notify" ON "${schema}"."outbox"`);
    relay = new OutboxRelay(dataSource, publisher, pino({ level: 'silent' }), requireEnv('DATABASE_URL'), 60 * 60 * 1000);
    await relay.start();
    await relay.flush();
  });

  afterAll(async () => {
    await relay?.stop();
    await dataSource?.query(`DROP SCHEMA "${schema}" CASCADE`);
    await dataSource?.destroy();
  });

  it('publishes the events of a transaction of its own process as soon as it commits, without waiting for NOTIFY or a poll', async () => {
    const outbox = new Outbox();
    const envelope = await dataSource.transaction(async (manager) => {
      const first = await outbox.add(manager, noted, { seq: 1 });
      // A savepoint's release inside the transaction is not its commit.
      await manager.transaction((inner) => outbox.add(inner, noted, { seq: 2 }));
      return first;
    });

    await waitFor('the events published', async () => publisher.published.length === 2);
    expect(publisher.published.map((record) => [record.envelope.id, record.key])).toEqual([
      [envelope.id, '1'],
      [expect.any(String), '2'],
    ]);
    await waitFor('the events marked published', async () => {
      const [{ unsent }] = await dataSource.query(`SELECT count(*)::int AS unsent FROM "outbox" WHERE "published_at" IS NULL`);
      return unsent === 0;
    });
  });

  it('publishes nothing of a transaction that rolls back', async () => {
    const before = publisher.published.length;
    await expect(
      dataSource.transaction(async (manager) => {
        await new Outbox().add(manager, noted, { seq: 3 });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await relay.flush();
    expect(publisher.published.length).toBe(before);
  });
});

describe('the outbox relay with events waiting', () => {
  it('publishes what was written while it was busy in full batches once it is free, not an event or two at a time', async () => {
    const schema = `fx_relay_${randomUUID().slice(0, 8)}`;
    const dataSource = createServiceDataSource({ url: requireEnv('DATABASE_URL'), schema, entities: [], migrations: [] });
    await dataSource.initialize();
    await migrate(dataSource);
    await dataSource.query(`DROP TRIGGER "outbox_notify" ON "${schema}"."outbox"`);
    // The first publish is held until every later event is committed, so what waits is known, not raced.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const batches: number[] = [];
    const publisher = new (class extends RecordingPublisher {
      override async publish(records: OutboxRecord[]): Promise<void> {
        batches.push(records.length);
        if (batches.length === 1) await held;
        await super.publish(records);
      }
    })();
    const relay = new OutboxRelay(dataSource, publisher, pino({ level: 'silent' }), requireEnv('DATABASE_URL'), 60 * 60 * 1000);
    const waiting = 450;
    try {
      await relay.start();
      const outbox = new Outbox();
      await dataSource.transaction((manager) => outbox.add(manager, noted, { seq: 0 }));
      await waitFor('the first event taken', async () => batches.length === 1);
      // Eight writers, one transaction an event, each commit waking the busy relay.
      await Promise.all(
        Array.from({ length: 8 }, async (_, writer) => {
          for (let seq = 1 + writer; seq <= waiting; seq += 8) await dataSource.transaction((manager) => outbox.add(manager, noted, { seq }));
        }),
      );
      expect(batches).toEqual([1]);
      release();
      await relay.flush();

      // 450 waiting events in batches of 200: exactly ⌈450 / 200⌉ more rounds.
      expect(batches).toEqual([1, 200, 200, 50]);
      const keys = publisher.published.map((record) => Number(record.key)).sort((a, b) => a - b);
      expect(keys).toEqual(Array.from({ length: waiting + 1 }, (_, seq) => seq));
      const [{ unsent }] = await dataSource.query(`SELECT count(*)::int AS unsent FROM "outbox" WHERE "published_at" IS NULL`);
      expect(unsent).toBe(0);
    } finally {
      release();
      await relay.stop();
      await dataSource.query(`DROP SCHEMA "${schema}" CASCADE`);
      await dataSource.destroy();
    }
  });
});
