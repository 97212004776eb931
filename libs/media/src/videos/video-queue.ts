import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { InProcessJobQueue, type JobHandlers, type JobPolicy, type JobQueue, LOGGER, REDIS, SERVICE_NAME } from '@shiliu/platform';
import { BullMqJobQueue } from '@shiliu/platform/bullmq';
import type { ConnectionOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { type MediaJobs, mediaQueueName, VideoProcessJob } from './video-process.job';

/**
 * Three attempts, 5 s then 10 s apart; an attempt may take 15 minutes, enough to transcode a 100 MB upload
 * on one slow core. A failed job keeps its reason for a week.
 */
export const mediaJobPolicy: JobPolicy = { attempts: 3, backoffMs: 5_000, timeoutMs: 15 * 60_000 };

export function mediaJobHandlers(video: VideoProcessJob): JobHandlers<MediaJobs> {
  return { 'video.process': (payload, context) => video.run(payload, context) };
}

/** BullMQ's connection settings from the platform's Redis client (BullMQ keeps its own connections). */
export function bullMqConnection(redis: Redis): ConnectionOptions {
  return { ...redis.options, maxRetriesPerRequest: null };
}

/**
 * The media jobs as the API sees them: with Redis (distributed mode) a BullMQ queue whose work the separate
 * worker processes do (apps/media/src/worker.ts); without it (embedded mode) a runner inside this process.
 */
@Injectable()
export class VideoQueue implements OnModuleDestroy {
  readonly jobs: JobQueue<MediaJobs>;

  constructor(@Inject(REDIS) redis: Redis | null, @Inject(SERVICE_NAME) schema: string, @Inject(LOGGER) logger: Logger, video: VideoProcessJob) {
    this.jobs = redis
      ? new BullMqJobQueue<MediaJobs>(mediaQueueName(schema), bullMqConnection(redis), mediaJobPolicy)
      : new InProcessJobQueue<MediaJobs>(mediaJobHandlers(video), mediaJobPolicy, logger);
  }

  async onModuleDestroy(): Promise<void> {
    await this.jobs.close();
  }
}
