import { Client } from 'pg';
import { PrivatePostgres, waitFor } from '../src/testing';
import { PingProcesses } from './fixtures/ping-processes';

const EVENTS = 600;
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
    await pings.send(EVENTS, 0);
    await waitFor('the consumer to be part-way through', async () => (await pings.received()).total >= 50, 60_000, 20);
    expect((await pings.received()).total).toBeLessThan(EVENTS);
    await postgres.stopServer();
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
