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

describe('the outbox relay under a steady stream of events', () => {
  /** Commits 200 events from 8 writers, one transaction each, and counts the batches the relay publishes them in. */
  async function batchesFor(roundGapMs?: number): Promise<{ batches: number; published: number }> {
    const schema = `fx_relay_${randomUUID().slice(0, 8)}`;
    const dataSource = createServiceDataSource({ url: requireEnv('DATABASE_URL'), schema, entities: [], migrations: [] });
    await dataSource.initialize();
    await migrate(dataSource);
    await dataSource.query(`DROP TRIGGER "outbox_notify" ON "${schema}"."outbox"`);
    let batches = 0;
    const publisher = new (class extends RecordingPublisher {
      override async publish(records: OutboxRecord[]): Promise<void> {
        batches += 1;
        await super.publish(records);
      }
    })();
    const relay = new OutboxRelay(dataSource, publisher, pino({ level: 'silent' }), requireEnv('DATABASE_URL'), 60 * 60 * 1000, roundGapMs);
    try {
      await relay.start();
      const outbox = new Outbox();
      await Promise.all(
        Array.from({ length: 8 }, async (_, writer) => {
          for (let i = 0; i < 25; i++) await dataSource.transaction((manager) => outbox.add(manager, noted, { seq: writer * 25 + i }));
        }),
      );
      await relay.flush();
      return { batches, published: new Set(publisher.published.map((record) => record.envelope.id)).size };
    } finally {
      await relay.stop();
      await dataSource.query(`DROP SCHEMA "${schema}" CASCADE`);
      await dataSource.destroy();
    }
  }

  it('publishes what arrives while it works in fewer, larger batches than one round trip per event or two', async () => {
    const eager = await batchesFor(0);
    const paced = await batchesFor();
    expect(eager.published).toBe(200);
    expect(paced.published).toBe(200);
    expect(paced.batches).toBeLessThan(eager.batches / 2);
  });
});
