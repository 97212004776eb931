import { join } from 'node:path';
import { topics } from '@shiliu/contracts';
import { Kafka, logLevel } from 'kafkajs';
import { Client } from 'pg';
import { requireEnv, spawnTs } from '../src/testing';

const fixture = join(__dirname, 'fixtures/ping-process.main.ts');

async function exitOf(child: ReturnType<typeof spawnTs>): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', resolve));
}

/**
 * The release tasks Kubernetes Jobs run with a service's image (k8s/base/jobs.yaml): each needs only the settings it
 * uses, does its one thing and exits 0, so a Job completes.
 */
describe('service release tasks', () => {
  const suffix = Math.random().toString(36).slice(2, 10);

  it('--migrate runs the service\'s migrations with only DATABASE_URL and exits', async () => {
    const schema = `fx_producer_${suffix}`;
    const database = new Client({ connectionString: requireEnv('DATABASE_URL') });
    await database.connect();
    try {
      const child = spawnTs(fixture, ['producer', suffix, '--migrate'], {
        DATABASE_URL: requireEnv('DATABASE_URL'),
        KAFKA_BROKERS: undefined,
        REDIS_URL: undefined,
        S3_ENDPOINT: undefined,
        AUTH_PUBLIC_KEY: undefined,
      });
      expect(await exitOf(child)).toBe(0);
      const applied = await database.query(`SELECT name FROM "${schema}".migrations`);
      expect(applied.rowCount).toBeGreaterThan(0);
    } finally {
      await database.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await database.end();
    }
  });

  it('--create-topics creates every contract topic and its .dlq twin with only KAFKA_BROKERS and exits', async () => {
    const prefix = `task-${suffix}.`;
    const admin = new Kafka({ clientId: `test-${suffix}`, brokers: requireEnv('KAFKA_BROKERS').split(','), logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    const wanted = topics.flatMap((topic) => [`${prefix}${topic}`, `${prefix}${topic}.dlq`]);
    try {
      const child = spawnTs(fixture, ['producer', suffix, '--create-topics'], {
        KAFKA_BROKERS: requireEnv('KAFKA_BROKERS'),
        KAFKA_TOPIC_PREFIX: prefix,
        DATABASE_URL: undefined,
        REDIS_URL: undefined,
        S3_ENDPOINT: undefined,
        AUTH_PUBLIC_KEY: undefined,
      });
      expect(await exitOf(child)).toBe(0);
      const existing = new Set(await admin.listTopics());
      expect(wanted.filter((topic) => !existing.has(topic))).toEqual([]);
    } finally {
      await admin.deleteTopics({ topics: wanted }).catch(() => undefined);
      await admin.disconnect();
    }
  });
});
