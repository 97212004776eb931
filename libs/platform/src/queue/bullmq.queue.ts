// Its own entry point (`@shiliu/platform/bullmq`), outside the platform's index: only media queues work, and BullMQ
// with its dependencies would cost every other process heap it never uses.
import { Queue, Worker, type ConnectionOptions } from 'bullmq';
import type { Logger } from 'pino';
import { queueDepthSources, queueJobDuration, queueJobsFailed } from '../metrics/metrics';
import { type JobHandlers, type JobPolicy, type JobQueue, type JobState, type JobStatus, runAttempt } from './job-queue';

/**
 * BullMQ's view of a job's state, in the four our API knows ("delayed" is a retry waiting out its backoff).
 */
const stateOf: Record<string, JobState> = {
  waiting: 'waiting',
  'waiting-children': 'waiting',
  prioritized: 'waiting',
  delayed: 'waiting',
  active: 'active',
  completed: 'completed',
  failed: 'failed',
};

/** The producer's side of a BullMQ queue (distributed mode); the work is done by `startBullMqWorker` elsewhere. */
export class BullMqJobQueue<Jobs extends Record<string, object>> implements JobQueue<Jobs> {
  private readonly queue: Queue;
  private readonly depthSource = async () => {
    const counts = await this.queue.getJobCounts('waiting', 'delayed', 'active', 'failed');
    return Object.entries(counts).map(([state, jobs]) => ({ queue: this.queue.name, state, jobs }));
  };

  constructor(name: string, connection: ConnectionOptions, private readonly policy: JobPolicy) {
    this.queue = new Queue(name, { connection });
    queueDepthSources.add(this.depthSource);
  }

  async add<Name extends keyof Jobs & string>(name: Name, payload: Jobs[Name], options: { jobId?: string } = {}): Promise<string> {
    const job = await this.queue.add(name, payload, {
      jobId: options.jobId,
      attempts: this.policy.attempts,
      backoff: { type: 'exponential', delay: this.policy.backoffMs },
      // Statuses are read for a day after the job ends, then forgotten.
      removeOnComplete: { age: 24 * 3600 },
      removeOnFail: { age: 7 * 24 * 3600 },
    });
    return job.id!;
  }

  async status(jobId: string): Promise<JobStatus | null> {
    // The state first, then the job: read the other way round, a job that fails for good in between shows as
    // failed with the attempt count of before its last attempt.
    const current = await this.queue.getJobState(jobId);
    const job = current === 'unknown' ? undefined : await this.queue.getJob(jobId);
    if (!job) return null;
    const state = stateOf[current] ?? 'waiting';
    return {
      state,
      progress: typeof job.progress === 'number' ? job.progress : 0,
      result: state === 'completed' ? (job.returnvalue as object) : null,
      failedReason: job.failedReason || null,
      attemptsMade: job.attemptsMade,
    };
  }

  async payload(jobId: string): Promise<Jobs[keyof Jobs] | null> {
    const job = await this.queue.getJob(jobId);
    return job ? (job.data as Jobs[keyof Jobs]) : null;
  }

  async close(): Promise<void> {
    queueDepthSources.delete(this.depthSource);
    await this.queue.close();
  }
}

export interface BullMqWorkerOptions {
  concurrency: number;
  /**
   * How long a worker holds a job without renewing its lock. A worker that dies (SIGKILL, lost host) stops
   * renewing; after this long another worker takes the job over.
   */
  lockMs: number;
}

/** A worker process's consumer of a BullMQ queue: each job goes to its handler under the policy's time limit. */
export function startBullMqWorker<Jobs extends Record<string, object>>(
  name: string,
  connection: ConnectionOptions,
  handlers: JobHandlers<Jobs>,
  policy: JobPolicy,
  options: BullMqWorkerOptions,
  logger: Logger,
): Worker {
  const worker = new Worker(
    name,
    async (job) => {
      const handler = handlers[job.name as keyof Jobs];
      if (!handler) throw new Error(`No handler for job "${job.name}"`);
      const stop = queueJobDuration.startTimer({ queue: name, job: job.name });
      try {
        const result = await runAttempt(policy.timeoutMs, (signal) =>
          handler(job.data as Jobs[keyof Jobs], { jobId: job.id!, signal, progress: (percent) => job.updateProgress(percent) }),
        );
        stop({ outcome: 'completed' });
        return result;
      } catch (error) {
        stop({ outcome: 'failed' });
        throw error;
      }
    },
    { connection, concurrency: options.concurrency, lockDuration: options.lockMs, stalledInterval: Math.max(1000, Math.floor(options.lockMs / 2)) },
  );
  worker.on('failed', (job, error) => {
    logger.warn({ err: error, jobId: job?.id, job: job?.name, attempt: job?.attemptsMade }, 'job attempt failed');
    if (job && job.attemptsMade >= (job.opts.attempts ?? 1)) queueJobsFailed.inc({ queue: name, job: job.name });
  });
  worker.on('error', (error) => logger.error({ err: error }, 'job worker error'));
  return worker;
}
