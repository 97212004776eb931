import { type JobStatus } from '@shiliu/platform';
import { assertRunning, requireEnv, spawnTs, stopProcess, waitFor } from '@shiliu/platform/testing';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import sharp from 'sharp';
import { VideoQueue } from '../src/videos/video-queue';
import { video } from './media-fixtures';
import { MediaTestApp } from './media-test-app';

interface UploadedVideo {
  url: string;
  jobId: string;
}

/**
 * Distributed mode: the API puts video jobs on BullMQ and separate worker processes (apps/media/src/worker.ts) do
 * them. A worker killed in the middle of a transcode loses its lock, and another worker finishes the job.
 */
describe('video jobs on BullMQ with separate workers', () => {
  let redis: Redis;
  let app: MediaTestApp;
  const workers: ReturnType<typeof spawnTs>[] = [];

  beforeAll(async () => {
    redis = new Redis(requireEnv('REDIS_URL'));
    app = await MediaTestApp.start({ redis });
  });

  afterAll(async () => {
    for (const worker of workers) await stopProcess(worker);
    await app?.close();
    redis?.disconnect();
  });

  function startWorker(): ReturnType<typeof spawnTs> {
    const worker = spawnTs('apps/media/src/worker.ts', [], {
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      S3_BUCKET: app.bucket.name,
      MEDIA_SCHEMA: app.schema,
      MEDIA_JOB_LOCK_MS: '2000',
    });
    workers.push(worker);
    return worker;
  }

  async function status(jobId: string): Promise<JobStatus> {
    return (await app.call<JobStatus>('GET', `/api/upload/video/jobs/${jobId}`, { token: await app.token() })).body.data;
  }

  it('finishes on a second worker the transcode of a worker killed mid-job', async () => {
    const first = startWorker();
    await waitFor('the first worker', async () => (assertRunning(first), first.output().includes('media worker ready')));

    // While this holds the outbox, a job cannot record its end, however fast it transcodes: the first worker is
    // certain to be killed mid-job.
    const holder = new Client({ connectionString: requireEnv('DATABASE_URL') });
    await holder.connect();
    let jobId: string;
    let url: string;
    try {
      await holder.query('BEGIN');
      await holder.query(`LOCK TABLE "${app.schema}"."outbox" IN EXCLUSIVE MODE`);
      const answer = await app.upload<UploadedVideo>('/api/upload/video', [{ field: 'file', name: 'lecture.avi', body: await video('avi', 12, '1280x720') }]);
      expect(answer.status).toBe(200);
      ({ jobId, url } = answer.body.data);

      await waitFor('the transcode to be under way', async () => {
        assertRunning(first);
        const current = await status(jobId);
        return current.state === 'active' && current.progress > 10;
      });
      // The whole worker goes, as when its host dies: its ffmpeg child too.
      const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(first.pid)]).toString().trim().split(/\s+/).filter(Boolean);
      await stopProcess(first, 'SIGKILL');
      for (const pid of children) process.kill(Number(pid), 'SIGKILL');
      expect((await status(jobId)).progress).toBeLessThan(100);
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }

    const second = startWorker();
    const done = await waitFor(
      'the second worker to finish the job',
      async () => {
        assertRunning(second);
        const current = await status(jobId);
        if (current.state === 'failed') throw new Error(current.failedReason ?? 'failed');
        return current.state === 'completed' ? current : null;
      },
      180_000,
    );
    expect(done.progress).toBe(100);
    const result = done.result as { url: string; coverUrl: string };
    expect(result.url).toBe(url.replace(/\.avi$/, '.mp4'));
    const events = await app.query(`SELECT 1 FROM "outbox" WHERE "type" = 'media.video.processed'`);
    expect(events).toHaveLength(1);
    const head = await app.fetchFile(result.url, { range: 'bytes=0-4095' });
    expect(head.status).toBe(206);
    expect(head.body.subarray(4, 8).toString('latin1')).toBe('ftyp');
    // The second worker's cover command was started before the job came (FfmpegVideoTools' coversAhead).
    const cover = await sharp((await app.fetchFile(result.coverUrl)).body).metadata();
    expect([cover.format, cover.width, cover.height]).toEqual(['jpeg', 640, 360]);
  }, 300_000);

  it('shows a job that keeps failing as failed, with its reason, after its retries', async () => {
    const worker = workers.at(-1)!;
    const jobId = await app.service.app.get(VideoQueue).jobs.add(
      'video.process',
      {
        sourceKey: 'videos/missing.mp4',
        extension: 'mp4',
        sha256: 'missing',
        ownerId: 1001,
        probe: { durationSeconds: 12, width: 1280, height: 720, videoCodec: 'h264', audioCodec: 'aac' },
        coverKey: null,
      },
      { jobId: randomUUID() },
    );
    const failed = await waitFor(
      'the job to fail for good',
      async () => {
        assertRunning(worker);
        const current = await status(jobId);
        return current.state === 'failed' ? current : null;
      },
      120_000,
    );
    expect(failed.attemptsMade).toBe(3);
    expect(failed.failedReason).toMatch(/not ?found|does not exist|NoSuchKey/i);
  }, 180_000);
});
