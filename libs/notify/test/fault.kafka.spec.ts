import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { type EventEnvelope, postLiked, type PostReactionPayload } from '@shiliu/contracts';
import { createKafka, createLogger, generateTokenKeyPair, KafkaEventPublisher, type OutboxRecord } from '@shiliu/platform';
import { assertRunning, distributedServiceEnv, freePort, requireEnv, spawnTs, stopProcess, waitFor } from '@shiliu/platform/testing';
import { Client } from 'pg';
import { COUNTER_DRIFT_SQL } from './notify-test-app';

const SENDERS = 40;
const NOTES = 25;
const AUTHORS = 5;

/**
 * 2,000 like events over real Kafka while the notify consumer is killed with SIGKILL and started again, twice: every
 * (sender, note) pair is liked by two events, and whatever a killed consumer had handled but not yet committed to
 * Kafka comes again. Afterwards each pair has exactly one notification and the unread counters equal a recount.
 */
describe('notify under SIGKILL (Kafka)', () => {
  const database = `shiliu_notify_${randomUUID().slice(0, 8)}`;
  const logger = createLogger('fault-test', 'silent');
  const kafka = createKafka(requireEnv('KAFKA_BROKERS').split(','), 'notify-fault-test', logger);
  const publisher = new KafkaEventPublisher(kafka, logger, `${database}.`);
  const admin = new Client({ connectionString: requireEnv('DATABASE_URL') });
  let db: Client;
  let env: NodeJS.ProcessEnv;
  let notify: ReturnType<typeof spawnTs> | null = null;

  const count = async (sql: string): Promise<number> => Number((await db.query<{ n: string }>(sql)).rows[0].n);
  const handled = () => count(`SELECT count(*) AS "n" FROM "notify"."inbox"`);

  const start = async (metricsPort = 0) => {
    const port = await freePort();
    const child = spawnTs(join(__dirname, '../../../apps/notify/src/main.ts'), [], { ...env, PORT: String(port), METRICS_PORT: String(metricsPort) });
    notify = child;
    await waitFor('notify to be ready', async () => {
      assertRunning(child);
      return (await fetch(`http://127.0.0.1:${port}/health/ready`).catch(() => null))?.ok;
    }, 90_000, 250);
  };

  beforeAll(async () => {
    await admin.connect();
    await admin.query(`CREATE DATABASE "${database}"`);
    const url = new URL(requireEnv('DATABASE_URL'));
    url.pathname = `/${database}`;
    db = new Client({ connectionString: url.toString() });
    await db.connect();
    env = distributedServiceEnv({ databaseUrl: url.toString(), publicKeyPem: (await generateTokenKeyPair()).publicKeyPem, topicPrefix: `${database}.` });
  });

  afterAll(async () => {
    if (notify) await stopProcess(notify);
    await publisher.close();
    await db?.end();
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.end();
  });

  it('makes exactly one notification per sender and note, with counters equal to a recount', async () => {
    const records: OutboxRecord[] = [];
    for (let round = 0; round < 2; round++) {
      for (let sender = 1; sender <= SENDERS; sender++) {
        for (let note = 1; note <= NOTES; note++) {
          const payload: PostReactionPayload = { post_id: 50_000 + note, post_author_id: 90_000 + (note % AUTHORS), user_id: sender, count: 1 };
          const id = randomUUID();
          const envelope: EventEnvelope<PostReactionPayload> = {
            id, type: postLiked.type, version: 1, occurredAt: new Date().toISOString(), actor: String(sender), correlationId: id, causationId: id, payload,
          };
          records.push({ topic: postLiked.topic, key: postLiked.key(payload), envelope });
        }
      }
    }
    // Interleaved, so that both events of a pair are spread over the run and over the kills.
    records.sort(() => Math.random() - 0.5);
    const send = async (from: number, to: number) => {
      for (let i = from; i < to; i += 100) await publisher.publish(records.slice(i, Math.min(i + 100, to)));
    };

    await start();
    await send(0, 800);
    await waitFor('notify to handle some events', async () => (await handled()) >= 200, 60_000, 50);
    await stopProcess(notify!, 'SIGKILL');
    await send(800, 1400);
    await start();
    await waitFor('notify to handle more events', async () => (await handled()) >= 900, 60_000, 50);
    await stopProcess(notify!, 'SIGKILL');
    await send(1400, 2000);
    const metricsPort = await freePort();
    await start(metricsPort);
    await waitFor('every event to be handled', async () => (await handled()) === 2000, 120_000, 250);

    expect(await count(`SELECT count(*) AS "n" FROM "notify"."notifications"`)).toBe(SENDERS * NOTES);
    expect((await db.query(`SELECT "sender_id", "post_id" FROM "notify"."notifications" GROUP BY 1, 2 HAVING count(*) > 1`)).rows).toEqual([]);
    expect(await count(`SELECT coalesce(sum("likes"), 0) AS "n" FROM "notify"."unread_counts"`)).toBe(SENDERS * NOTES);
    await db.query(`SET search_path TO "notify"`);
    expect((await db.query(COUNTER_DRIFT_SQL)).rows).toEqual([]);
    expect(await count(`SELECT count(*) AS "n" FROM "notify"."dead_letters"`)).toBe(0);
    // The consumer's lag on the topic, as Prometheus reads it, comes down to nothing once its offsets are committed.
    await waitFor('the consumer lag to reach 0', async () => {
      const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      return /^shiliu_kafka_consumer_lag\{service="notify",group="[^"]*",topic="shiliu\.reaction"\} 0$/m.test(metrics);
    }, 30_000, 500);
  }, 300_000);
});
