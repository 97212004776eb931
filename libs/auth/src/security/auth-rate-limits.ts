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
      throw tooMany(rejection.msBeforeNext);
    }
  }

  /**
   * One sign-in attempt, for students and administrators alike: counted per address; refused while the account
   * is locked out after repeated failures; a failure (the attempt answers null) counts against the account and a
   * success clears its count.
   */
  async signIn<T>(ip: string | undefined, account: string, attempt: () => Promise<T | null>): Promise<T | null> {
    await this.consume('loginPerIp', ip ?? 'unknown');
    const key = account.toLowerCase();
    const failures = await this.limiters.loginFailuresPerAccount.get(key);
    if (failures && failures.consumedPoints >= limits.loginFailuresPerAccount.points) throw tooMany(failures.msBeforeNext);
    const result = await attempt();
    if (result === null) await this.consume('loginFailuresPerAccount', key);
    else await this.limiters.loginFailuresPerAccount.delete(key);
    return result;
  }
}

function tooMany(msBeforeNext: number): HttpException {
  const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return new HttpException(envelope(429, `${messageForStatus(429)}（${seconds}秒后可重试）`, { retryAfter: seconds }), 429);
}
