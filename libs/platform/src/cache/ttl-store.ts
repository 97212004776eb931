import type { Redis } from 'ioredis';

/**
 * Short-lived values (captcha answers, one-hour view markers): in memory in embedded mode, in Redis in
 * distributed mode so that every replica sees them.
 */
export interface TtlStore {
  set(key: string, value: string, ttlSeconds: number): Promise<void>;
  get(key: string): Promise<string | null>;
  /** Reads and deletes in one step, so a value can be used once only. */
  take(key: string): Promise<string | null>;
  /** Sets only when absent; answers whether it was set. */
  setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean>;
}

/** Below this many entries a store never sweeps. */
const SWEEP_FLOOR = 10_000;

export class MemoryTtlStore implements TtlStore {
  private readonly values = new Map<string, { value: string; expiresAt: number }>();
  private sweepAt = SWEEP_FLOOR;

  /** `maxEntries` bounds the memory of a store that requests fill: past it, the oldest entry is dropped. */
  constructor(private readonly maxEntries = Number.POSITIVE_INFINITY) {}

  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    this.sweep();
    // Deleted first so that a rewritten key counts as the newest.
    this.values.delete(key);
    const oldest = this.values.keys().next();
    if (this.values.size >= this.maxEntries && !oldest.done) this.values.delete(oldest.value);
    this.values.set(key, { value, expiresAt: Date.now() + ttlSeconds * 1000 });
  }

  async get(key: string): Promise<string | null> {
    const entry = this.values.get(key);
    return entry && entry.expiresAt > Date.now() ? entry.value : null;
  }

  async take(key: string): Promise<string | null> {
    const entry = this.values.get(key);
    this.values.delete(key);
    return entry && entry.expiresAt > Date.now() ? entry.value : null;
  }

  async setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean> {
    const entry = this.values.get(key);
    if (entry && entry.expiresAt > Date.now()) return false;
    await this.set(key, value, ttlSeconds);
    return true;
  }

  /**
   * Drops expired entries now and then, so abandoned keys do not pile up. The next sweep waits until the store has
   * doubled: a store full of live entries (an hour of view markers) would otherwise be walked whole on every set.
   */
  private sweep(): void {
    if (this.values.size < this.sweepAt) return;
    const now = Date.now();
    for (const [key, entry] of this.values) if (entry.expiresAt <= now) this.values.delete(key);
    this.sweepAt = Math.max(SWEEP_FLOOR, this.values.size * 2);
  }
}

export class RedisTtlStore implements TtlStore {
  constructor(private readonly redis: Redis, private readonly prefix: string) {}

  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    await this.redis.set(this.prefix + key, value, 'EX', ttlSeconds);
  }

  async get(key: string): Promise<string | null> {
    return this.redis.get(this.prefix + key);
  }

  async take(key: string): Promise<string | null> {
    return this.redis.getdel(this.prefix + key);
  }

  async setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean> {
    return (await this.redis.set(this.prefix + key, value, 'EX', ttlSeconds, 'NX')) === 'OK';
  }
}
