import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { type EventEnvelope, postPublished, type PostSnapshot, userRegistered } from '@shiliu/contracts';
import { generateTokenKeyPair } from '@shiliu/platform';
import { assertRunning, freePort, requireEnv, spawnTs, stopProcess, TcpProxy, waitFor } from '@shiliu/platform/testing';
import { Kafka, logLevel, type Producer } from 'kafkajs';
import { Client } from 'pg';

type Child = ReturnType<typeof spawnTs>;

/**
 * The search service in distributed mode, fed over Kafka, with Elasticsearch behind a proxy the test cuts: search
 * answers 503 with a clear message meanwhile, the notes published meanwhile wait in Kafka, and once Elasticsearch
 * is back the consumer indexes them by itself.
 */
describe('search in distributed mode while Elasticsearch is down', () => {
  const database = `shiliu_search_${randomUUID().slice(0, 8)}`;
  const topicPrefix = `${database}.`;
  const admin = new Client({ connectionString: requireEnv('DATABASE_URL') });
  let proxy: TcpProxy;
  let search: Child;
  let base: string;
  let metricsPort: number;
  let producer: Producer;

  beforeAll(async () => {
    await admin.connect();
    await admin.query(`CREATE DATABASE "${database}"`);
    const url = new URL(requireEnv('DATABASE_URL'));
    url.pathname = `/${database}`;
    const elasticsearch = new URL(requireEnv('ELASTICSEARCH_URL'));
    proxy = await TcpProxy.start({ host: elasticsearch.hostname, port: Number(elasticsearch.port) });
    const port = await freePort();
    metricsPort = await freePort();
    base = `http://127.0.0.1:${port}`;
    search = spawnTs(join(__dirname, '../../../apps/search/src/main.ts'), [], {
      PORT: String(port),
      METRICS_PORT: String(metricsPort),
      DATABASE_URL: url.toString(),
      KAFKA_BROKERS: requireEnv('KAFKA_BROKERS'),
      KAFKA_TOPIC_PREFIX: topicPrefix,
      KAFKA_SESSION_TIMEOUT_MS: '6000',
      REDIS_URL: requireEnv('REDIS_URL'),
      S3_ENDPOINT: requireEnv('S3_ENDPOINT'),
      S3_ACCESS_KEY: requireEnv('S3_ACCESS_KEY'),
      S3_SECRET_KEY: requireEnv('S3_SECRET_KEY'),
      AUTH_PUBLIC_KEY: (await generateTokenKeyPair()).publicKeyPem,
      SEARCH_ENGINE: 'elasticsearch',
      ELASTICSEARCH_URL: `http://${proxy.address}`,
      SEARCH_INDEX_PREFIX: database,
      // A kept answer is given until its window passes, cluster or not: a second keeps this test short.
      SEARCH_CACHE_MS: '1000',
      NODE_ENV: 'test',
    });
    await waitFor('the search service to be ready', async () => {
      assertRunning(search);
      return (await fetch(`${base}/health/ready`).catch(() => null))?.ok;
    }, 120_000, 500);
    producer = new Kafka({ clientId: 'search-outage-test', brokers: requireEnv('KAFKA_BROKERS').split(','), logLevel: logLevel.NOTHING }).producer();
    await producer.connect();
  }, 150_000);

  afterAll(async () => {
    await producer?.disconnect();
    if (search) await stopProcess(search);
    await proxy?.close();
    await fetch(`${requireEnv('ELASTICSEARCH_URL')}/${database}-*`, { method: 'DELETE' });
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.end();
  });

  /** Sends an event as its producer's outbox relay would: on its topic, keyed by its aggregate. */
  async function send<T>(definition: { type: string; topic: string; key: (payload: T) => string }, payload: T): Promise<void> {
    const id = randomUUID();
    const envelope: EventEnvelope<T> = { id, type: definition.type, version: 1, occurredAt: new Date().toISOString(), actor: null, correlationId: id, causationId: id, payload };
    await producer.send({ topic: `${topicPrefix}${definition.topic}`, messages: [{ key: definition.key(payload), value: JSON.stringify(envelope), headers: { 'event-type': envelope.type, 'correlation-id': id } }] });
  }

  const note = (id: number, title: string): PostSnapshot => ({
    id, author_id: 1, author_user_id: 'outage_author', title, content_text: '', category_id: 1, category_title: 'study',
    type: 1, tags: [], images: [], cover_url: null, video_url: null, created_at: new Date(Date.now() + id).toISOString(),
  });

  /** How often the consumer has had to try a published note again for a failure that may pass (the cluster away). */
  const retried = async (): Promise<number> =>
    (await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text())
      .split('\n')
      .filter((line) => line.startsWith('shiliu_event_retries_total{') && line.includes('type="post.published"') && line.includes('failure="transient"'))
      .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);

  const find = async (): Promise<{ status: number; message: string; titles: string[] }> => {
    const answer = await fetch(`${base}/api/search?keyword=${encodeURIComponent('断网')}`);
    const body = (await answer.json()) as { message: string; data: { posts: { data: { title: string }[] } } | null };
    return { status: answer.status, message: body.message, titles: body.data?.posts.data.map((card) => card.title) ?? [] };
  };

  it('answers 503 while it is down and indexes from Kafka what was published meanwhile once it is back', async () => {
    await send(userRegistered, { user: { id: 1, user_id: 'outage_author', nickname: '作者', avatar: '', bio: '', location: '', verified: 0 } });
    await send(postPublished, { post: note(1, '断网之前') });
    await waitFor('the first note to be searchable', async () => (await find()).titles.length === 1, 60_000, 250);

    proxy.cut();
    // The answer the search service keeps (SEARCH_CACHE_MS, here a second) may be given until its windows pass.
    const down = await waitFor('search to answer 503', async () => {
      const result = await find();
      return result.status !== 200 && result;
    }, 60_000, 50);
    expect(down).toEqual({ status: 503, message: '搜索服务暂时不可用，请稍后重试', titles: [] });
    for (const path of ['/api/search/posts?keyword=a', '/api/search/suggest?keyword=a']) {
      const answer = await fetch(`${base}${path}`);
      expect([path, answer.status, ((await answer.json()) as { message: string }).message]).toEqual([path, 503, '搜索服务暂时不可用，请稍后重试']);
    }
    const retriedBefore = await retried();
    await send(postPublished, { post: note(2, '断网时发布一') });
    await send(postPublished, { post: note(3, '断网时发布二') });
    // The notes have reached the consumer, which keeps them while the cluster is away rather than dropping or parking them.
    await waitFor('the consumer to meet the outage with the notes', async () => (await retried()) > retriedBefore, 60_000, 250);
    expect((await find()).status).toBe(503);
    expect((await fetch(`${base}/health/live`)).ok).toBe(true);

    proxy.restore();
    const found = await waitFor('the notes published during the outage to be searchable', async () => {
      const result = await find();
      return result.titles.length === 3 && result;
    }, 60_000, 250);
    expect(found.titles).toEqual(['断网时发布二', '断网时发布一', '断网之前']);
  });
});
