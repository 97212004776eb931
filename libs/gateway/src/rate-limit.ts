import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

export interface RateLimitSettings {
  /** Requests per client address per window. */
  points: number;
  windowSeconds: number;
}

/** How often a replica adds its counts to the shared ones and learns the others'. */
export const RATE_LIMIT_SYNC_MS = 100;

export interface RateLimiterOptions {
  /** Where the shared counts live in Redis. */
  keyPrefix?: string;
  now?: () => number;
  /** How often the counts are shared on a timer; 0 leaves it to whoever calls `sync`, as a test that counts exactly must. */
  syncEveryMs?: number;
}

interface Tally {
  /** The window the counts belong to (its number since the epoch). */
  window: number;
  /** Calls counted here and not yet added to the shared count. */
  pending: number;
  /** The shared count as Redis last answered it, this replica's added calls included. */
  shared: number;
}

/**
 * Counts calls per client address in fixed windows. Every call is counted in memory, so a call never waits on a
 * round trip; in distributed mode each replica adds its counts to Redis every 100 ms and learns the total of all
 * replicas in the same answer, so a client spreading its calls over the replicas meets one limit, exceeded at most
 * by what the other replicas let through in the last 100 ms. A Redis round trip per call was a large share of the
 * gateway's time under load. When Redis cannot be reached each replica goes on counting its own calls rather than
 * refusing everyone, and catches up when Redis is back.
 */
export class RateLimiter {
  private readonly tallies = new Map<string, Tally>();
  /** The addresses with calls not yet shared. */
  private readonly dirty = new Set<string>();
  /** The window whose past tallies were last forgotten. */
  private pruned = 0;
  private readonly windowMs: number;
  private readonly timer?: NodeJS.Timeout;
  private syncing: Promise<void> | null = null;
  private unshared = false;

  private readonly keyPrefix: string;
  private readonly now: () => number;

  constructor(
    private readonly settings: RateLimitSettings,
    private readonly redis?: Redis,
    private readonly logger?: Logger,
    options: RateLimiterOptions = {},
  ) {
    this.windowMs = settings.windowSeconds * 1000;
    this.keyPrefix = options.keyPrefix ?? 'shiliu:gateway:rl';
    this.now = options.now ?? (() => Date.now());
    const every = options.syncEveryMs ?? RATE_LIMIT_SYNC_MS;
    if (every > 0) {
      this.timer = setInterval(() => void this.sync(), every);
      this.timer.unref();
    }
  }

  /** Counts a call; answers how many seconds the client must wait, or 0 when the call may go on. */
  consume(key: string): number {
    const now = this.now();
    const window = Math.floor(now / this.windowMs);
    let tally = this.tallies.get(key);
    if (!tally || tally.window !== window) {
      tally = { window, pending: 0, shared: 0 };
      this.tallies.set(key, tally);
    }
    tally.pending++;
    if (this.redis) this.dirty.add(key);
    if (tally.shared + tally.pending <= this.settings.points) return 0;
    return Math.max(1, Math.ceil(((window + 1) * this.windowMs - now) / 1000));
  }

  /** Forgets the tallies of past windows; adds the pending counts to the shared ones and learns their totals. */
  sync(): Promise<void> {
    this.syncing ??= this.push().finally(() => (this.syncing = null));
    return this.syncing;
  }

  close(): void {
    clearInterval(this.timer);
  }

  private async push(): Promise<void> {
    const window = Math.floor(this.now() / this.windowMs);
    if (window !== this.pruned) {
      for (const [key, tally] of this.tallies) if (tally.window !== window) this.tallies.delete(key);
      this.pruned = window;
    }
    const sent: [string, Tally, number][] = [];
    for (const key of this.dirty) {
      const tally = this.tallies.get(key);
      if (tally && tally.pending > 0) sent.push([key, tally, tally.pending]);
    }
    this.dirty.clear();
    if (!this.redis || sent.length === 0) return;
    const batch = this.redis.pipeline();
    for (const [key, tally, count] of sent) {
      const shared = `${this.keyPrefix}:${tally.window}:${key}`;
      batch.incrby(shared, count).pexpire(shared, this.windowMs * 2);
    }
    let results: [Error | null, unknown][] | null;
    try {
      results = await batch.exec();
    } catch (error) {
      for (const [key] of sent) this.dirty.add(key);
      if (!this.unshared) this.logger?.warn({ err: error }, 'rate limit counts not shared; counting in memory until Redis answers');
      this.unshared = true;
      return;
    }
    this.unshared = false;
    sent.forEach(([, tally, count], index) => {
      const [error, total] = results?.[index * 2] ?? [null, null];
      if (error || typeof total !== 'number') {
        this.dirty.add(sent[index][0]);
        return;
      }
      // Calls counted while the batch was out stay pending for the next one.
      tally.pending -= count;
      tally.shared = total;
    });
  }
}
