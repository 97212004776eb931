import { startMetricsServer } from '@shiliu/platform';
import { assertRunning, requireEnv, spawnTs, stopProcess, waitFor } from '@shiliu/platform/testing';
import { Worker } from 'bullmq';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { consumerRunning, WorkerHeartbeat } from '../src/videos/worker-heartbeat';
import { MediaTestApp } from './media-test-app';

async function healthz(port: number): Promise<number> {
  return (await fetch(`http://127.0.0.1:${port}/healthz`)).status;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The media worker's liveness probe (k8s/base/media-worker.yaml): GET /healthz on its metrics port answers 200 while
 * its heartbeat is fresh and 503 once it is stale, whether the event loop stopped turning or the consumer stopped.
 */
describe('media worker liveness', () => {
  let redis: Redis;

  beforeAll(() => {
    redis = new Redis(requireEnv('REDIS_URL'));
  });

  afterAll(() => redis?.disconnect());

  describe('the worker process', () => {
    let app: MediaTestApp;
    let worker: ReturnType<typeof spawnTs> | undefined;

    beforeAll(async () => {
      app = await MediaTestApp.start({ redis });
    });

    afterAll(async () => {
      if (worker) await stopProcess(worker);
      await app?.close();
    });

    it('answers healthy on its metrics port while it runs, beyond the stale threshold', async () => {
      // Beats every 50 ms: stale after 300 ms without one.
      worker = spawnTs('apps/media/src/worker.ts', [], { LOG_LEVEL: 'info', LOG_FORMAT: 'json', S3_BUCKET: app.bucket.name, MEDIA_SCHEMA: app.schema, MEDIA_WORKER_HEARTBEAT_MS: '50' });
      const started = worker;
      const port = await waitFor('the worker to be ready', async () => {
        assertRunning(started);
        const ready = started.output().split('\n').find((line) => line.includes('media worker ready'));
        return ready ? (JSON.parse(ready) as { metricsPort: number }).metricsPort : null;
      });
      expect(await healthz(port)).toBe(200);
      await sleep(500);
      expect(await healthz(port)).toBe(200);
      expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(200);
    });
  });

  describe('the heartbeat behind it, with a real BullMQ consumer', () => {
    const queue = `liveness-${randomUUID()}`;
    const opened: { stop(): void; close(): Promise<void> }[] = [];

    afterAll(async () => {
      for (const each of opened) {
        each.stop();
        await each.close();
      }
    });

    async function serve(worker: Worker, options: { everyMs: number; staleAfterMs: number; now?: () => number }): Promise<number> {
      const heartbeat = new WorkerHeartbeat(consumerRunning(worker), options).start();
      const metrics = await startMetricsServer(0, '127.0.0.1', heartbeat.live);
      opened.push({ stop: () => heartbeat.stop(), close: async () => (await metrics.close(), await worker.close()) });
      return metrics.port;
    }

    it('fails once the heartbeat is older than the threshold (a stalled event loop, on an injected clock)', async () => {
      const worker = new Worker(queue, async () => undefined, { connection: { ...redis.options, maxRetriesPerRequest: null } });
      await worker.waitUntilReady();
      let now = 1_000_000;
      // One beat at start and none after (the timer's period is an hour), as when the event loop stops turning.
      const port = await serve(worker, { everyMs: 3_600_000, staleAfterMs: 30_000, now: () => now });
      expect(await healthz(port)).toBe(200);
      now += 30_000;
      expect(await healthz(port)).toBe(200);
      now += 1;
      expect(await healthz(port)).toBe(503);
    });

    it('fails when the queue consumer is not running, though the event loop turns', async () => {
      const stopped = new Worker(queue, async () => undefined, { connection: { ...redis.options, maxRetriesPerRequest: null }, autorun: false });
      const port = await serve(stopped, { everyMs: 20, staleAfterMs: 100 });
      expect(await healthz(port)).toBe(200);
      await waitFor('the probe to fail', async () => (await healthz(port)) === 503, 5_000, 20);
    });
  });
});
