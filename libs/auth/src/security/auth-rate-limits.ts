import { BadRequestException, Inject, Injectable } from '@nestjs/common';
import { consumeRateLimit, envelope, keyedRateLimiter, REDIS, SERVICE_NAME, TooManyRequestsException } from '@shiliu/platform';
import type { Redis } from 'ioredis';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { AUTH_CONFIG, type AuthConfig } from '../auth.config';

type Limit = 'loginPerIp' | 'loginFailuresPerAccountAndIp' | 'loginFailuresPerAccount' | 'registerPerIp' | 'captchaPerIp';

const FAILURE_WINDOW_SECONDS = 15 * 60;

export const CAPTCHA_REQUIRED = '登录失败次数过多，请输入验证码';

/** Checks (and uses up) the captcha that came with a sign-in, if any; asked only of accounts being guessed at. */
export type SignInCaptcha = () => Promise<boolean>;

/**
 * Per-address and per-account limits on sign-in, registration and captcha (Redis in distributed mode), all of
 * them settings (auth.config.ts). Wrong passwords are counted per account and address, so one address guessing
 * waits while everyone else signs in, and per account, where past a threshold every sign-in to that account needs
 * a captcha: guessing stays impossible without anyone being able to lock the owner (or an administrator) out.
 */
@Injectable()
export class AuthRateLimits {
  private readonly limiters: Record<Limit, RateLimiterAbstract>;
  private readonly points: Record<Limit, number>;

  constructor(@Inject(REDIS) redis: Redis | null, @Inject(AUTH_CONFIG) config: AuthConfig, @Inject(SERVICE_NAME) service: string) {
    const options: Record<Limit, { points: number; duration: number }> = {
      loginPerIp: { points: config.AUTH_LOGIN_PER_IP_PER_MINUTE, duration: 60 },
      loginFailuresPerAccountAndIp: { points: config.AUTH_LOGIN_FAILURES_PER_ACCOUNT_AND_IP, duration: FAILURE_WINDOW_SECONDS },
      loginFailuresPerAccount: { points: config.AUTH_LOGIN_FAILURES_BEFORE_CAPTCHA, duration: FAILURE_WINDOW_SECONDS },
      registerPerIp: { points: config.AUTH_REGISTER_PER_IP_PER_HOUR, duration: 60 * 60 },
      captchaPerIp: { points: config.AUTH_CAPTCHA_PER_IP_PER_MINUTE, duration: 60 },
    };
    this.points = Object.fromEntries(Object.entries(options).map(([name, option]) => [name, option.points])) as Record<Limit, number>;
    this.limiters = Object.fromEntries(
      (Object.entries(options) as [Limit, { points: number; duration: number }][]).map(([name, option]) => [
        name,
        keyedRateLimiter(redis, { ...option, keyPrefix: `shiliu:${service}:${name}` }),
      ]),
    ) as Record<Limit, RateLimiterAbstract>;
  }

  /** Counts one attempt; throws 429 (with Retry-After) when the limit is reached. */
  consume(limit: Limit, key: string): Promise<void> {
    return consumeRateLimit(this.limiters[limit], key.toLowerCase());
  }

  /**
   * One sign-in attempt, for students and administrators alike: counted per address; refused (429) for an
   * address that has guessed wrong too often at this account; needing a right captcha (400 with
   * `captchaRequired`) while the account is being guessed at from anywhere. A failure (the attempt answers null)
   * counts against the account and the pair; a success clears the pair's count, while the account's runs out
   * with its window, so a guesser gets no fresh allowance each time the owner signs in.
   */
  async signIn<T>(ip: string | undefined, account: string, captcha: SignInCaptcha, attempt: () => Promise<T | null>): Promise<T | null> {
    const address = (ip ?? 'unknown').toLowerCase();
    await this.consume('loginPerIp', address);
    const accountKey = account.toLowerCase();
    const pairKey = `${accountKey}|${address}`;
    const pair = await this.limiters.loginFailuresPerAccountAndIp.get(pairKey);
    if (pair && pair.consumedPoints >= this.points.loginFailuresPerAccountAndIp) throw new TooManyRequestsException(pair.msBeforeNext);
    const failures = await this.limiters.loginFailuresPerAccount.get(accountKey);
    if (failures && failures.consumedPoints >= this.points.loginFailuresPerAccount && !(await captcha())) {
      throw new BadRequestException(envelope(400, CAPTCHA_REQUIRED, { captchaRequired: true }));
    }
    const result = await attempt();
    if (result === null) {
      await this.limiters.loginFailuresPerAccount.penalty(accountKey);
      await this.limiters.loginFailuresPerAccountAndIp.penalty(pairKey);
    } else {
      await this.limiters.loginFailuresPerAccountAndIp.delete(pairKey);
    }
    return result;
  }
}
