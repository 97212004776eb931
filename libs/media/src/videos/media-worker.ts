import {
  commonSettings,
  ConfigError,
  createLogger,
  createServiceDataSource,
  loadConfig,
  migrate,
  MinioStorage,
  Outbox,
  startMetricsServer,
  url,
} from '@shiliu/platform';
import { startBullMqWorker } from '@shiliu/platform/bullmq';
import { Redis } from 'ioredis';
import { z } from 'zod';
import { mediaMigrations } from '../migrations/media-migrations';
import { UploadRepository } from '../uploads/upload.repository';
import { FfmpegVideoTools } from './ffmpeg.video-tools';
import { type MediaJobs, mediaQueueName, VideoProcessJob } from './video-process.job';
import { mediaJobHandlers, mediaJobPolicy } from './video-queue';
import { consumerRunning, WorkerHeartbeat } from './worker-heartbeat';

const workerSettings = {
  ...commonSettings,
  DATABASE_URL: url(),
  REDIS_URL: url(),
  S3_ENDPOINT: url(),
  S3_ACCESS_KEY: z.string().min(1),
  S3_SECRET_KEY: z.string().min(1),
  S3_BUCKET: z.string().min(3).default('shiliu'),
  /** The media service's schema (and so its queue); only tests running their own instance change it. */
  MEDIA_SCHEMA: z.string().regex(/^[a-z_][a-z0-9_]*$/).default('media'),
  /** Jobs one worker process runs at once; ffmpeg uses every core it gets, so one is the default. */
  MEDIA_WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(1),
  /** How soon another worker takes over the job of a worker that died. */
  MEDIA_JOB_LOCK_MS: z.coerce.number().int().min(1000).default(30_000),
  /** Prometheus metrics (job durations and failures) on this management port when set (Kubernetes: 9107). */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** How often the liveness heartbeat looks at the worker; /healthz on the metrics port fails after six missed beats. */
  MEDIA_WORKER_HEARTBEAT_MS: z.coerce.number().int().min(10).default(5_000),
};

/**
 * A media worker process (distributed mode): takes video jobs from BullMQ and writes their results to object
 * storage and to the media service's outbox, which the API process's relay publishes. Scales by running more.
 */
export async function runMediaWorker(): Promise<void> {
  const logger = createLogger('media-worker');
  try {
    const settings = loadConfig(workerSettings);
    const dataSource = createServiceDataSource({ url: settings.DATABASE_URL, schema: settings.MEDIA_SCHEMA, entities: [], migrations: mediaMigrations, poolSize: 2 });
    await dataSource.initialize();
    await migrate(dataSource);
    const storage = new MinioStorage({ endpoint: settings.S3_ENDPOINT, accessKey: settings.S3_ACCESS_KEY, secretKey: settings.S3_SECRET_KEY, bucket: settings.S3_BUCKET });
    const tools = new FfmpegVideoTools({ coversAhead: true });
    await tools.warmUp();
    const job = new VideoProcessJob(storage, tools, dataSource, new Outbox(), new UploadRepository(dataSource));
    // BullMQ's blocking reads must wait as long as they need, never give up after a few retries.
    const redis = new Redis(settings.REDIS_URL, { maxRetriesPerRequest: null });
    const worker = startBullMqWorker<MediaJobs>(
      mediaQueueName(settings.MEDIA_SCHEMA),
      redis,
      mediaJobHandlers(job),
      mediaJobPolicy,
      { concurrency: settings.MEDIA_WORKER_CONCURRENCY, lockMs: settings.MEDIA_JOB_LOCK_MS },
      logger,
    );
    await worker.waitUntilReady();
    const beatMs = settings.MEDIA_WORKER_HEARTBEAT_MS;
    const heartbeat = new WorkerHeartbeat(consumerRunning(worker), { everyMs: beatMs, staleAfterMs: 6 * beatMs }).start();
    const metrics = settings.METRICS_PORT === undefined ? null : await startMetricsServer(settings.METRICS_PORT, '0.0.0.0', heartbeat.live);
    logger.info({ queue: mediaQueueName(settings.MEDIA_SCHEMA), metricsPort: metrics?.port }, 'media worker ready');
    const stop = async (signal: string) => {
      logger.info({ signal }, 'shutting down');
      // The job in hand finishes first; a worker killed instead leaves it to another once its lock runs out. The
      // metrics port stays open meanwhile, so the liveness probe keeps passing through the drain.
      await worker.close();
      heartbeat.stop();
      await metrics?.close();
      await tools.close();
      redis.disconnect();
      await dataSource.destroy();
      process.exit(0);
    };
    process.once('SIGTERM', () => void stop('SIGTERM'));
    process.once('SIGINT', () => void stop('SIGINT'));
  } catch (error) {
    logger.fatal({ err: error }, error instanceof ConfigError ? error.message : 'media worker failed to start');
    process.exit(1);
  }
}
