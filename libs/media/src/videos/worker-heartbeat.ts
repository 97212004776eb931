import type { Worker } from 'bullmq';

export interface HeartbeatOptions {
  /** How often the worker is looked at. */
  everyMs: number;
  /** How old the last good beat may be before the worker counts as stuck. */
  staleAfterMs: number;
  /** The clock; tests set their own. */
  now?: () => number;
}

/**
 * The media worker's liveness signal (served as GET /healthz on its metrics port, Kubernetes' livenessProbe). Every
 * `everyMs` a timer asks `alive()` and notes the time when it holds; a beat older than `staleAfterMs` means the event
 * loop stopped turning or the queue consumer stopped taking jobs, and a restart is the cure. Redis is not asked:
 * BullMQ reconnects by itself, and an outage of Redis must not restart every worker.
 */
export class WorkerHeartbeat {
  private readonly now: () => number;
  private last: number;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly alive: () => boolean, private readonly options: HeartbeatOptions) {
    this.now = options.now ?? Date.now;
    this.last = this.now();
  }

  start(): this {
    this.beat();
    this.timer = setInterval(() => this.beat(), this.options.everyMs);
    this.timer.unref();
    return this;
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Whether the last good beat is recent enough. */
  readonly live = (): boolean => this.now() - this.last <= this.options.staleAfterMs;

  private beat(): void {
    if (this.alive()) this.last = this.now();
  }
}

/** A BullMQ worker is alive while its consumer loop runs, or while it closes on purpose (the job in hand finishing). */
export function consumerRunning(worker: Pick<Worker, 'isRunning' | 'closing'>): () => boolean {
  return () => worker.isRunning() || worker.closing !== undefined;
}
