import { HttpException, Inject, Injectable } from '@nestjs/common';
import { envelope, messageForStatus, REDIS } from '@shiliu/platform';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';

type Limit = 'loginPerIp' | 'loginFailuresPerAccount' | 'registerPerIp' | 'captchaPerIp';

const limits: Record<Limit, { points: number; duration: number }> = {
  loginPerIp: { points: 30, duration: 60 },
  // Guessing one account's password from many addresses is stopped here.
  loginFailuresPerAccount: { points: 10, duration: 15 * 60 },
  registerPerIp: { points: 10, duration: 60 * 60 },
  captchaPerIp: { points: 30, duration: 60 },
};

/** Per-address and per-account limits on sign-in, registration and captcha (Redis in distributed mode). */
@Injectable()
export class AuthRateLimits {
  private readonly limiters: Record<Limit, RateLimiterAbstract>;

  constructor(@Inject(REDIS) redis: Redis | null) {
    this.limiters = Object.fromEntries(
      (Object.entries(limits) as [Limit, { points: number; duration: number }][]).map(([name, options]) => {
        const settings = { ...options, keyPrefix: `shiliu:auth:${name}` };
        return [name, redis ? new RateLimiterRedis({ ...settings, storeClient: redis, insuranceLimiter: new RateLimiterMemory(settings) }) : new RateLimiterMemory(settings)];
      }),
    ) as Record<Limit, RateLimiterAbstract>;
  }

  /** Counts one attempt; throws 429 with the wait when the limit is reached. */
  async consume(limit: Limit, key: string): Promise<void> {
    try {
      await this.limiters[limit].consume(key.toLowerCase());
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const seconds = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      throw new HttpException(envelope(429, `${messageForStatus(429)}（${seconds}秒后可重试）`, { retryAfter: seconds }), 429);
    }
  }

  /** A successful sign-in clears the account's failure count. */
  async reset(limit: Limit, key: string): Promise<void> {
    await this.limiters[limit].delete(key.toLowerCase());
  }

  /** Whether the account is locked out right now, without counting an attempt. */
  async isBlocked(limit: Limit, key: string): Promise<number> {
    const state = await this.limiters[limit].get(key.toLowerCase());
    return state && state.consumedPoints >= limits[limit].points ? Math.ceil(state.msBeforeNext / 1000) : 0;
  }
}
