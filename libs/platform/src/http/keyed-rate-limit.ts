import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { TooManyRequestsException } from './too-many-requests';

export interface KeyedRateLimitSettings {
  /** Calls per key per window. */
  points: number;
  /** The window, in seconds. */
  duration: number;
  /** Where the counts live in Redis: named by the service's name (its schema), so test instances sharing one Redis count apart. */
  keyPrefix: string;
}

/**
 * A service's limit per key (an address, an account, a user): counted in Redis when the service has it, so every
 * replica meets one limit, in memory otherwise, and in memory while Redis cannot be reached.
 */
export function keyedRateLimiter(redis: Redis | null, settings: KeyedRateLimitSettings): RateLimiterAbstract {
  return redis ? new RateLimiterRedis({ ...settings, storeClient: redis, insuranceLimiter: new RateLimiterMemory(settings) }) : new RateLimiterMemory(settings);
}

/** Counts one call against `key`; throws 429 (with Retry-After) once the key's calls are used up. */
export async function consumeRateLimit(limiter: RateLimiterAbstract, key: string): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    throw new TooManyRequestsException(rejection.msBeforeNext);
  }
}
