import { randomUUID, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { MemoryTtlStore, REDIS, RedisTtlStore, type TtlStore } from '@shiliu/platform';
import type { Redis } from 'ioredis';
import svgCaptcha from 'svg-captcha';
import { AUTH_CONFIG, type AuthConfig } from '../auth.config';

const CAPTCHA_TTL_SECONDS = 5 * 60;

/** Four-character SVG captchas: case-insensitive, single use, valid for five minutes. */
@Injectable()
export class CaptchaService {
  private readonly store: TtlStore;

  constructor(@Inject(REDIS) redis: Redis | null, @Inject(AUTH_CONFIG) private readonly config: AuthConfig) {
    this.store = redis ? new RedisTtlStore(redis, 'shiliu:auth:captcha:') : new MemoryTtlStore();
  }

  async create(): Promise<{ captchaId: string; captchaSvg: string }> {
    const captcha = svgCaptcha.create({ size: 4, noise: 2, ignoreChars: '0oO1iIlL', color: true, background: '#f5f5f5' });
    const captchaId = randomUUID();
    await this.store.set(captchaId, (this.config.AUTH_CAPTCHA_TEST_ANSWER ?? captcha.text).toLowerCase(), CAPTCHA_TTL_SECONDS);
    return { captchaId, captchaSvg: captcha.data };
  }

  /** Checks an answer and uses the captcha up, right or wrong, so each one gets a single try. */
  async check(captchaId: string, answer: string): Promise<boolean> {
    const expected = await this.store.take(captchaId);
    if (!expected) return false;
    const given = Buffer.from(answer.trim().toLowerCase());
    const wanted = Buffer.from(expected);
    return given.length === wanted.length && timingSafeEqual(given, wanted);
  }
}
