import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { Client } from 'pg';
import { requireEnv, spawnTs, waitFor } from '../src/testing';
import { PingProcesses } from './fixtures/ping-processes';

const EVENTS = 1000;

/**
 * Distributed mode: two service processes, the producer's outbox relayed through Kafka to the consumer's
 * @EventPattern handler. Both sides are killed with SIGKILL in the middle of 1,000 events (the producer between
 * publishing a batch and marking it sent); after restarts every event has been handled exactly once, in order per key.
 */
describe('events in distributed mode (outbox → Kafka → inbox, across processes)', () => {
  const pings = new PingProcesses();

  beforeAll(async () => {
    await pings.setUp();
    pings.start('producer');
    pings.start('consumer');
    await Promise.all([pings.health('producer'), pings.health('consumer')]);
  });

  afterAll(() => pings.tearDown());

  it('sends an event from one process through Kafka to a handler in another', async () => {
    await pings.send(1, 0);
    await waitFor('the first ping to arrive', async () => (await pings.received()).total === 1, 60_000);
    expect(await pings.received()).toEqual({ total: 1, distinct_events: 1 });
  });

  it('handles every one of 1,000 events exactly once, in order per key, although producer and consumer are SIGKILLed mid-stream', async () => {
    const lockKey = `outbox:${pings.producerSchema}`;
    const holder = new Client({ connectionString: requireEnv('DATABASE_URL') });
    await holder.connect();
    try {
      // Holding the relay's lock keeps the 1,000 events in the outbox until the trap below is set.
      await holder.query(`SELECT pg_advisory_lock(hashtext($1))`, [lockKey]);
      await pings.send(EVENTS, 1);
      // A SHARE lock on the outbox lets the relay read and publish a batch but blocks it from marking the batch sent.
      await holder.query('BEGIN');
      await holder.query(`LOCK TABLE "${pings.producerSchema}"."outbox" IN SHARE MODE`);
      await holder.query(`SELECT pg_advisory_unlock(hashtext($1))`, [lockKey]);
      await waitFor('the consumer to be part-way through the first batch', async () => (await pings.received()).total >= 100, 60_000, 20);

      await pings.stop('consumer', 'SIGKILL');
      expect((await pings.received()).total).toBeLessThan(EVENTS);
      await pings.stop('producer', 'SIGKILL');
      // The killed process's statements end with it, as the server finds the connection gone (here at once).
      await holder.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name LIKE $1`, [`shiliu-${pings.producerSchema}%`]);
      await holder.query('ROLLBACK');
    } finally {
      await holder.end();
    }
    // The producer died after publishing and before marking: every event is still unsent in its outbox.
    const { rows } = await pings.producerDatabase.query(`SELECT count(*)::int AS unsent FROM "${pings.producerSchema}"."outbox" WHERE published_at IS NULL`);
    expect(rows[0].unsent).toBe(EVENTS);

    pings.start('consumer');
    pings.start('producer');
    await Promise.all([pings.health('producer'), pings.health('consumer')]);
    await waitFor('all events handled after the restarts', async () => (await pings.received()).distinct_events === EVENTS + 1, 120_000, 250);
    await waitFor('the consumer to have committed everything on the topic', () => pings.consumerCaughtUp(), 60_000, 250);

    expect(await pings.received()).toEqual({ total: EVENTS + 1, distinct_events: EVENTS + 1 });
    expect(await pings.keysOutOfOrder()).toEqual([]);
    // The republished batch reached the consumer again, and its inbox turned each copy away.
    expect(await pings.consumerMetric('shiliu_events_handled_total', { outcome: 'duplicate' })).toBeGreaterThan(0);
    const after = await pings.producerDatabase.query(`SELECT count(*)::int AS unsent FROM "${pings.producerSchema}"."outbox" WHERE published_at IS NULL`);
    expect(after.rows[0].unsent).toBe(0);
  });

  it('sets aside an outbox record Kafka refuses for good, and publishes what follows it', async () => {
    const big = { id: randomUUID(), type: 'fixture.ping-sent', version: 1, occurredAt: new Date().toISOString(), actor: null, correlationId: randomUUID(), causationId: randomUUID(), payload: { seq: 8000, padding: 'x'.repeat(2_000_000) } };
    await pings.producerDatabase.query(`INSERT INTO "${pings.producerSchema}"."outbox" ("id", "topic", "key", "type", "envelope") VALUES ($1, $2, '0', $3, $4)`, [
      big.id,
      pings.topic,
      big.type,
      JSON.stringify(big),
    ]);
    await pings.send(1, 8001);
    await waitFor('the ping written after the refused record to be handled', async () => {
      const { rows } = await pings.consumerDatabase.query(`SELECT 1 FROM "${pings.consumerSchema}"."received_pings" WHERE seq = 8001`);
      return rows.length === 1;
    });
    const { rows } = await pings.producerDatabase.query(`SELECT published_at, failed_at IS NOT NULL AS failed, error FROM "${pings.producerSchema}"."outbox" WHERE id = $1`, [big.id]);
    expect(rows).toEqual([{ published_at: null, failed: true, error: expect.stringMatching(/larger than the max message size/) }]);
  });

  it('parks what it cannot read (not JSON, an unknown type, a newer version) in <topic>.dlq with the reason, and handles what follows on the partition', async () => {
    const producer = pings.kafka.producer();
    await producer.connect();
    const ping = (seq: number, version = 1) =>
      JSON.stringify({ id: randomUUID(), type: 'fixture.ping-sent', version, occurredAt: new Date().toISOString(), actor: null, correlationId: randomUUID(), causationId: randomUUID(), payload: { seq } });
    const unknown = JSON.stringify({ ...JSON.parse(ping(7001)), type: 'fixture.never-defined' });
    try {
      await producer.send({
        topic: pings.topic,
        messages: [{ value: '{"this is": not json' }, { value: unknown }, { value: ping(7002, 2) }, { value: ping(7003) }].map((message) => ({ ...message, partition: 0 })),
      });
    } finally {
      await producer.disconnect();
    }
    const parked = await readDeadLetterTopic(pings, 3);
    await waitFor('the ping after them to be handled', async () => {
      const { rows } = await pings.consumerDatabase.query(`SELECT 1 FROM "${pings.consumerSchema}"."received_pings" WHERE seq = 7003`);
      return rows.length === 1;
    });

    // Each lands on the dead-letter partition of its own key: compare them in a fixed order.
    parked.sort((a, b) => String(a.reason).localeCompare(String(b.reason)));
    expect(parked).toEqual([
      expect.objectContaining({ reason: 'malformed', consumerGroup: `shiliu-${pings.consumerSchema}`, value: '{"this is": not json' }),
      expect.objectContaining({ reason: 'unknown-type', consumerGroup: `shiliu-${pings.consumerSchema}`, error: 'unknown event type "fixture.never-defined"' }),
      expect.objectContaining({ reason: 'unsupported-version', consumerGroup: `shiliu-${pings.consumerSchema}` }),
    ]);
    expect((await pings.deadLetters()).map(({ reason }) => reason)).toEqual(['malformed', 'unknown-type', 'unsupported-version']);
  });

  it('parks an event whose handler keeps failing, after retrying, and the replay command sends it again once the handler is fixed', async () => {
    expect((await pings.post('/api/pings/flaky')).status).toBe(200);
    await waitFor('the flaky event parked', async () => (await pings.deadLetters()).some(({ type }) => type === 'fixture.ping-flaky'), 60_000, 250);
    expect((await pings.deadLetters()).find(({ type }) => type === 'fixture.ping-flaky')).toEqual({
      type: 'fixture.ping-flaky',
      reason: 'handler-failed',
      consumer: pings.consumerSchema,
      error: 'Error: this handler has a bug',
    });
    expect(await pings.consumerMetric('shiliu_event_retries_total', { type: 'fixture.ping-flaky', failure: 'permanent' })).toBeGreaterThan(0);

    await pings.consumerDatabase.query(`INSERT INTO "${pings.consumerSchema}"."fixes" DEFAULT VALUES`);
    const replay = spawnTs(join(__dirname, '../src/cli/replay.main.ts'), [pings.consumerSchema, 'fixture.ping-flaky'], { DATABASE_URL: pings.consumerDatabaseUrl });
    const code = await new Promise<number | null>((resolve) => replay.once('exit', resolve));
    expect({ code, output: replay.output().trim() }).toEqual({
      code: 0,
      output: `${pings.consumerSchema}: 1 parked event(s) sent again, 0 refused outbox record(s) released`,
    });
    await waitFor('the replayed event handled', async () => {
      const { rows } = await pings.consumerDatabase.query(`SELECT 1 FROM "${pings.consumerSchema}"."received_pings" WHERE seq = -2`);
      return rows.length === 1;
    });
  });
});

interface ParkedMessage {
  reason?: string;
  consumerGroup?: string;
  error?: string;
  value: string;
}

async function readDeadLetterTopic(pings: PingProcesses, count: number): Promise<ParkedMessage[]> {
  const reader = pings.kafka.consumer({ groupId: `dlq-reader-${pings.suffix}` });
  const parked: ParkedMessage[] = [];
  await reader.connect();
  try {
    await reader.subscribe({ topic: `${pings.topic}.dlq`, fromBeginning: true });
    await reader.run({
      eachMessage: async ({ message }) => {
        parked.push({
          reason: message.headers?.reason?.toString(),
          consumerGroup: message.headers?.['consumer-group']?.toString(),
          error: message.headers?.error?.toString(),
          value: message.value?.toString() ?? '',
        });
      },
    });
    await waitFor(`${count} messages in the dead-letter topic`, async () => parked.length >= count, 60_000, 250);
    return parked;
  } finally {
    await reader.disconnect();
  }
}
