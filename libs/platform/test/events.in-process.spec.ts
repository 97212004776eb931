import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { createServiceApp, eventRetries, type InProcessEventBus, replayParked, type ServiceApp } from '../src';
import { requireEnv, testServiceRuntime, waitFor } from '../src/testing';
import { pingServices } from './fixtures/ping.fixture';

/** Embedded mode: the same handler code as with Kafka, fed by the in-process transport reading the outbox. */
describe('events in embedded mode (outbox → in-process transport → inbox)', () => {
  const suffix = randomUUID().slice(0, 8);
  const { producer, consumer } = pingServices(suffix);
  let bus: InProcessEventBus;
  let producerApp: ServiceApp;
  let consumerApp: ServiceApp;
  let baseUrl: string;

  beforeAll(async () => {
    const runtime = await testServiceRuntime();
    bus = runtime.bus;
    producerApp = await createServiceApp(producer, runtime);
    consumerApp = await createServiceApp(consumer, runtime);
    await producerApp.relay.start();
    await consumerApp.relay.start();
    await producerApp.app.listen(0, '127.0.0.1');
    baseUrl = await producerApp.app.getUrl();
  });

  afterAll(async () => {
    await producerApp?.close();
    await consumerApp?.close();
  });

  const received = async () => {
    const [row] = await consumerApp.dataSource.query(`SELECT count(*)::int AS total, count(DISTINCT event_id)::int AS distinct_events FROM "received_pings"`);
    return row as { total: number; distinct_events: number };
  };

  it('delivers every event written in a transaction to the other service once, as one run', async () => {
    const answer = await fetch(`${baseUrl}/api/pings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ count: 50, from: 0 }),
    });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ code: 200, message: 'success', data: { sent: 50 } });

    await waitFor('50 pings handled', async () => (await received()).total >= 50);
    expect(await received()).toEqual({ total: 50, distinct_events: 50 });
    // Committed together, relayed as one batch, handled as one run: one transaction wrote every ping.
    const [{ transactions }] = await consumerApp.dataSource.query(`SELECT count(DISTINCT "xmin"::text)::int AS transactions FROM "received_pings"`);
    expect(transactions).toBe(1);
    const [{ unpublished }] = await producerApp.dataSource.query(`SELECT count(*)::int AS unpublished FROM "outbox" WHERE published_at IS NULL`);
    expect(unpublished).toBe(0);
  });

  it('gives a redelivered event no second effect', async () => {
    const [{ envelope }] = await producerApp.dataSource.query(`SELECT envelope FROM "outbox" ORDER BY seq LIMIT 1`);
    await bus.deliver(envelope);
    await bus.deliver(envelope);
    expect(await received()).toEqual({ total: 50, distinct_events: 50 });
  });

  it('carries the request id as the correlation id of the events it causes', async () => {
    const requestId = `test-${randomUUID()}`;
    await fetch(`${baseUrl}/api/pings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': requestId },
      body: JSON.stringify({ count: 1, from: 1000 }),
    });
    const [row] = await producerApp.dataSource.query(`SELECT envelope FROM "outbox" WHERE envelope->'payload'->>'seq' = '1000'`);
    expect(row.envelope.correlationId).toBe(requestId);
    expect(row.envelope.causationId).toBe(requestId);
  });

  it('rejects bad input with 400 and the DTO message, changing nothing', async () => {
    const answer = await fetch(`${baseUrl}/api/pings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ count: 0, from: 0 }),
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({ code: 400, message: 'count 至少为 1', data: null });
  });

  it('parks an event whose handler keeps failing as a dead letter after retrying', async () => {
    await fetch(`${baseUrl}/api/pings/failing`, { method: 'POST' });
    const parked = await waitFor(
      'the failing event in dead_letters',
      async () => {
        const rows: { type: string; error: string }[] = await consumerApp.dataSource.query(`SELECT type, error FROM "dead_letters"`);
        return rows.length > 0 ? rows : null;
      },
      30_000,
    );
    expect(parked).toEqual([{ type: 'fixture.ping-failing', error: 'Error: this handler always fails' }]);
    const [{ count }] = await consumerApp.dataSource.query(`SELECT count(*)::int AS count FROM "inbox" WHERE type = 'fixture.ping-failing'`);
    expect(count).toBe(0);
  });

  it('runs consumers after the producer has committed, holding no transaction of the producer while a handler is retried', async () => {
    const retries = async () => (await eventRetries.get()).values.filter(({ labels }) => labels.type === 'fixture.ping-flaky').reduce((sum, { value }) => sum + value, 0);
    await fetch(`${baseUrl}/api/pings/flaky`, { method: 'POST' });
    await waitFor('the flaky handler to be retried', async () => (await retries()) > 0, 30_000, 20);
    const [{ open }] = await producerApp.dataSource.query(
      `SELECT count(*)::int AS open FROM pg_stat_activity WHERE application_name LIKE $1 AND state LIKE 'idle in transaction%'`,
      [`shiliu-${producer.name}%`],
    );
    expect(open).toBe(0);
  });

  it('sends a parked event again with replay once its handler is fixed', async () => {
    await waitFor('the flaky event parked', async () => {
      const rows: unknown[] = await consumerApp.dataSource.query(`SELECT 1 FROM "dead_letters" WHERE type = 'fixture.ping-flaky' AND reason = 'handler-failed'`);
      return rows.length === 1;
    });
    await consumerApp.dataSource.query(`INSERT INTO "fixes" DEFAULT VALUES`);
    expect(await replayParked(requireEnv('DATABASE_URL'), consumer.name, { type: 'fixture.ping-flaky' })).toEqual({ replayed: 1, released: 0 });
    await waitFor('the replayed event handled', async () => {
      const rows: unknown[] = await consumerApp.dataSource.query(`SELECT 1 FROM "received_pings" WHERE seq = -2`);
      return rows.length === 1;
    });
  });

  it('flushes only once the relay holding the lock elsewhere is done, so nothing is left behind', async () => {
    const lockKey = `outbox:${producer.name}`;
    const other = new Client({ connectionString: requireEnv('DATABASE_URL') });
    await other.connect();
    try {
      await other.query(`SELECT pg_advisory_lock(hashtext($1))`, [lockKey]);
      await fetch(`${baseUrl}/api/pings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ count: 5, from: 2000 }) });
      let flushed = false;
      const flush = producerApp.relay.flush().then(() => (flushed = true));
      await waitFor('the flush to wait for the lock', async () => {
        const { rows } = await other.query(`SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND objid::int = hashtext($1)`, [lockKey]);
        return rows.length === 1;
      });
      expect(flushed).toBe(false);
      await other.query(`SELECT pg_advisory_unlock(hashtext($1))`, [lockKey]);
      await flush;
    } finally {
      await other.end();
    }
    const [{ unpublished }] = await producerApp.dataSource.query(`SELECT count(*)::int AS unpublished FROM "outbox" WHERE published_at IS NULL`);
    expect(unpublished).toBe(0);
  });

  it('purges published events after a week and handled ids after two, keeping what is still needed', async () => {
    await producerApp.dataSource.query(`UPDATE "outbox" SET "published_at" = now() - interval '8 days' WHERE "seq" = (SELECT min("seq") FROM "outbox")`);
    await consumerApp.dataSource.query(`UPDATE "inbox" SET "handled_at" = now() - interval '15 days' WHERE "event_id" = (SELECT "event_id" FROM "inbox" LIMIT 1)`);
    const count = async (app: ServiceApp, table: string) => (await app.dataSource.query(`SELECT count(*)::int AS n FROM "${table}"`))[0].n as number;
    const [outboxBefore, inboxBefore] = [await count(producerApp, 'outbox'), await count(consumerApp, 'inbox')];
    await producerApp.relay.purge();
    await consumerApp.relay.purge();
    expect(await count(producerApp, 'outbox')).toBe(outboxBefore - 1);
    expect(await count(consumerApp, 'inbox')).toBe(inboxBefore - 1);
  });
});
