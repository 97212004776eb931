import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { Client } from 'pg';
import { generateTokenKeyPair } from '../src';
import { assertRunning, requireEnv, spawnTs, stopProcess, waitFor } from '../src';

const fixture = join(__dirname, 'fixtures/ping-process.main.ts');
const EVENTS = 1000;

/**
 * Distributed mode: two service processes, the producer's outbox relayed through Kafka to the consumer's
 * @EventPattern handler. The consumer is killed with SIGKILL in the middle of 1,000 events; after a restart
 * every event has been handled exactly once.
 */
describe('events in distributed mode (outbox → Kafka → inbox, across processes)', () => {
  const suffix = randomUUID().slice(0, 8);
  const producerPort = 41000 + Math.floor(Math.random() * 2000);
  const consumerPort = producerPort + 1;
  const database = new Client({ connectionString: requireEnv('DATABASE_URL') });
  let env: NodeJS.ProcessEnv;
  const children: ReturnType<typeof spawnTs>[] = [];

  const start = (role: 'producer' | 'consumer', port: number) => {
    const child = spawnTs(fixture, [role, suffix], { ...env, PORT: String(port) });
    children.push(child);
    return child;
  };
  const ready = (port: number, child: ReturnType<typeof spawnTs>) =>
    waitFor(
      `the service on port ${port} to be ready`,
      async () => {
        assertRunning(child);
        return (await fetch(`http://127.0.0.1:${port}/health/ready`)).ok;
      },
      90_000,
    );
  const received = async () => {
    const { rows } = await database.query(
      `SELECT count(*)::int AS total, count(DISTINCT event_id)::int AS distinct_events FROM "fx_consumer_${suffix}"."received_pings"`,
    );
    return rows[0] as { total: number; distinct_events: number };
  };
  const send = async (count: number, from: number) => {
    const answer = await fetch(`http://127.0.0.1:${producerPort}/api/pings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ count, from }),
    });
    expect(answer.status).toBe(200);
  };

  beforeAll(async () => {
    const keys = await generateTokenKeyPair();
    env = {
      DATABASE_URL: requireEnv('DATABASE_URL'),
      KAFKA_BROKERS: requireEnv('KAFKA_BROKERS'),
      REDIS_URL: requireEnv('REDIS_URL'),
      S3_ENDPOINT: requireEnv('S3_ENDPOINT'),
      S3_ACCESS_KEY: requireEnv('S3_ACCESS_KEY'),
      S3_SECRET_KEY: requireEnv('S3_SECRET_KEY'),
      AUTH_PUBLIC_KEY: keys.publicKeyPem,
      FIXTURE_TOPIC: `shiliu.fixture.${suffix}`,
      KAFKA_SESSION_TIMEOUT_MS: '6000',
      METRICS_PORT: '0',
    };
    await database.connect();
    const producer = start('producer', producerPort);
    const consumer = start('consumer', consumerPort);
    await Promise.all([ready(producerPort, producer), ready(consumerPort, consumer)]);
  });

  afterAll(async () => {
    await Promise.all(children.map((child) => stopProcess(child)));
    await database.end();
  });

  it('sends an event from one process through Kafka to a handler in another', async () => {
    await send(1, 0);
    await waitFor('the first ping to arrive', async () => (await received()).total === 1, 60_000);
    expect(await received()).toEqual({ total: 1, distinct_events: 1 });
  });

  it('handles every one of 1,000 events exactly once although the consumer is SIGKILLed in the middle', async () => {
    const consumer = children[1];
    await send(EVENTS, 1);
    await waitFor('the consumer to be part-way through', async () => (await received()).total >= 150, 60_000, 20);
    await stopProcess(consumer, 'SIGKILL');
    const atKill = (await received()).total;
    // The kill really interrupted the work: some events were still to be handled.
    expect(atKill).toBeLessThan(EVENTS);

    const restarted = start('consumer', consumerPort);
    await ready(consumerPort, restarted);
    await waitFor('all events handled after the restart', async () => (await received()).distinct_events === EVENTS + 1, 120_000, 250);
    // Give any redelivery in flight time to show up as a duplicate before counting.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(await received()).toEqual({ total: EVENTS + 1, distinct_events: EVENTS + 1 });
    const { rows } = await database.query(`SELECT count(*)::int AS unpublished FROM "fx_producer_${suffix}"."outbox" WHERE published_at IS NULL`);
    expect(rows[0].unpublished).toBe(0);
  });

  it('parks an event whose handler keeps failing in <topic>.dlq with the error, after retrying', async () => {
    const kafka = new Kafka({ clientId: 'dlq-reader', brokers: requireEnv('KAFKA_BROKERS').split(','), logLevel: logLevel.NOTHING });
    const reader = kafka.consumer({ groupId: `dlq-reader-${suffix}` });
    const parked: { type: string | undefined; error: string | undefined; payload: unknown }[] = [];
    await reader.connect();
    try {
      await reader.subscribe({ topic: `shiliu.fixture.${suffix}.dlq`, fromBeginning: true });
      await reader.run({
        eachMessage: async ({ message }) => {
          parked.push({
            type: message.headers?.['event-type']?.toString(),
            error: message.headers?.error?.toString(),
            payload: (JSON.parse(message.value!.toString()) as { payload: unknown }).payload,
          });
        },
      });
      const answer = await fetch(`http://127.0.0.1:${producerPort}/api/pings/failing`, { method: 'POST' });
      expect(answer.status).toBe(200);
      await waitFor('the failed event in the dead-letter topic', async () => parked.length > 0, 60_000, 250);
      expect(parked).toEqual([{ type: 'fixture.ping-failing', error: 'Error: this handler always fails', payload: { seq: -1 } }]);
    } finally {
      await reader.disconnect();
    }
  });
});
