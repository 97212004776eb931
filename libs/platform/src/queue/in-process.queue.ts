import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from 'pino';
import { type JobHandlers, type JobPolicy, type JobQueue, type JobStatus, runAttempt } from './job-queue';

/**
 * Embedded mode's job runner: jobs run in this process one after another, with the same retries, backoff and
 * time limit as the BullMQ workers. Statuses live in memory, like the rest of the embedded mode's short-lived state.
 */
export class InProcessJobQueue<Jobs extends Record<string, object>> implements JobQueue<Jobs> {
  private readonly statuses = new Map<string, JobStatus>();
  private readonly payloads = new Map<string, Jobs[keyof Jobs]>();
  private chain: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly handlers: JobHandlers<Jobs>,
    private readonly policy: JobPolicy,
    private readonly logger: Logger,
  ) {}

  async add<Name extends keyof Jobs & string>(name: Name, payload: Jobs[Name], options: { jobId?: string } = {}): Promise<string> {
    const jobId = options.jobId ?? randomUUID();
    if (this.statuses.has(jobId)) return jobId;
    this.statuses.set(jobId, { state: 'waiting', progress: 0, result: null, failedReason: null, attemptsMade: 0 });
    this.payloads.set(jobId, payload);
    this.chain = this.chain.then(() => this.run(jobId, name, payload));
    return jobId;
  }

  async status(jobId: string): Promise<JobStatus | null> {
    const status = this.statuses.get(jobId);
    return status ? { ...status } : null;
  }

  async payload(jobId: string): Promise<Jobs[keyof Jobs] | null> {
    return this.payloads.get(jobId) ?? null;
  }

  /** Waits for the jobs already queued; no attempt starts after this. */
  async close(): Promise<void> {
    this.closed = true;
    await this.chain;
  }

  private async run<Name extends keyof Jobs & string>(jobId: string, name: Name, payload: Jobs[Name]): Promise<void> {
    const status = this.statuses.get(jobId)!;
    while (!this.closed) {
      status.state = 'active';
      try {
        status.result = await runAttempt(this.policy.timeoutMs, (signal) =>
          this.handlers[name](payload, {
            jobId,
            signal,
            progress: async (percent) => {
              status.progress = percent;
            },
          }),
        );
        status.attemptsMade += 1;
        status.state = 'completed';
        return;
      } catch (error) {
        status.attemptsMade += 1;
        status.failedReason = error instanceof Error ? error.message : String(error);
        this.logger.warn({ err: error, jobId, job: name, attempt: status.attemptsMade }, 'job attempt failed');
        if (status.attemptsMade >= this.policy.attempts) break;
        status.state = 'waiting';
        await delay(this.policy.backoffMs * 2 ** (status.attemptsMade - 1));
      }
    }
    status.state = 'failed';
  }
}
