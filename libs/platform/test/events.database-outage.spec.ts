import { Client } from 'pg';
import { PrivatePostgres, waitFor } from '../src/testing';
import { PingProcesses } from './fixtures/ping-processes';

const EVENTS = 600;
/** Handled before the consumer is held and the database stops: the rest of the stream is still to come. */
const HANDLED_FIRST = 50;
const OUTAGE_MS = 30_000;

/**
 * The consumer's PostgreSQL (a cluster of this test's own) stops for 30 seconds in the middle of a stream, as in a
 * failover: the consumer keeps retrying the event in hand while the rest of its partition waits, parks nothing,
 * loses nothing and keeps the order per key once the database is back.
 */
describe('a consumer whose database stops for 30 seconds mid-stream', () => {
  const pings = new PingProcesses();
  let postgres: PrivatePostgres;

  beforeAll(async () => {
    postgres = await PrivatePostgres.start();
    await pings.setUp({ consumerDatabaseUrl: postgres.url });
    pings.start('producer');
    pings.start('consumer');
    await Promise.all([pings.health('producer'), pings.health('consumer')]);
  });

  afterAll(async () => {
    await pings.tearDown();
    await postgres.destroy();
  });

  it('parks nothing, loses nothing and keeps the order per key', async () => {
    await pings.send(HANDLED_FIRST, 0);
    await waitFor('the first pings handled', async () => (await pings.received()).total === HANDLED_FIRST, 60_000, 20);
    // Holding back the consumer's writes keeps it in the middle of the stream, an event in hand, until the outage.
    const holder = new Client({ connectionString: postgres.url });
    // The outage ends this connection with an error event.
    holder.on('error', () => undefined);
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query(`LOCK TABLE "${pings.consumerSchema}"."received_pings" IN EXCLUSIVE MODE`);
    await pings.send(EVENTS - HANDLED_FIRST, HANDLED_FIRST);
    await waitFor('the consumer to wait with an event in hand', async () => {
      const { rows } = await holder.query(`SELECT count(*)::int AS "waiting" FROM pg_locks WHERE NOT granted AND relation = '"${pings.consumerSchema}"."received_pings"'::regclass`);
      return rows[0].waiting > 0;
    });
    expect((await pings.received()).total).toBe(HANDLED_FIRST);
    await postgres.stopServer();
    await holder.end();
    await pings.health('consumer', 503);
    // The outage itself lasts a fixed time: this is the fault being simulated, not a wait for an outcome.
    await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
    await postgres.startServer();

    const database = new Client({ connectionString: postgres.url });
    await database.connect();
    try {
      pings.consumerDatabase = database;
      await waitFor('every event handled after the outage', async () => (await pings.received()).distinct_events === EVENTS, 180_000, 250);
      await waitFor('the consumer to have committed everything on the topic', () => pings.consumerCaughtUp(), 60_000, 250);
      expect(await pings.received()).toEqual({ total: EVENTS, distinct_events: EVENTS });
      expect(await pings.keysOutOfOrder()).toEqual([]);
      expect(await pings.deadLetters()).toEqual([]);
      expect(await pings.consumerMetric('shiliu_event_retries_total', { failure: 'transient' })).toBeGreaterThan(0);
      expect(await pings.consumerMetric('shiliu_dead_letters_total', {})).toBe(0);
    } finally {
      await database.end();
    }
  }, 360_000);
});
