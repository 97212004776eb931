import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';

export interface RateLimitSettings {
  /** Requests per client address per window. */
  points: number;
  windowSeconds: number;
}

/**
 * Counts requests per client address: in memory in embedded mode, in Redis in distributed mode so that every
 * gateway replica shares one count. If Redis is unreachable the gateway falls back to counting in memory
 * rather than refusing everyone.
 */
export function createRateLimiter(settings: RateLimitSettings, redis?: Redis): RateLimiterAbstract {
  const options = { points: settings.points, duration: settings.windowSeconds, keyPrefix: 'shiliu:gateway:rl' };
  const memory = new RateLimiterMemory(options);
  return redis ? new RateLimiterRedis({ ...options, storeClient: redis, insuranceLimiter: memory }) : memory;
}

/** Answers how many seconds the client must wait, or 0 when the request may go on. */
export async function consume(limiter: RateLimiterAbstract, key: string): Promise<number> {
  try {
    await limiter.consume(key);
    return 0;
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
    throw rejection;
  }
}
