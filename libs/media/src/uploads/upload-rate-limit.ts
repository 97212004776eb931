import { Inject, Injectable } from '@nestjs/common';
import { consumeRateLimit, keyedRateLimiter, REDIS, SERVICE_NAME } from '@shiliu/platform';
import type { Redis } from 'ioredis';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { MEDIA_CONFIG, type MediaConfig } from '../media.config';

/**
 * Upload calls per user per minute (DESIGN.md §5), counted before the body is read, so a flood costs neither the
 * disk nor the image decoder. Per user rather than per address: a campus shares few addresses.
 */
@Injectable()
export class UploadRateLimit {
  private readonly limiter: RateLimiterAbstract;

  constructor(@Inject(REDIS) redis: Redis | null, @Inject(MEDIA_CONFIG) config: MediaConfig, @Inject(SERVICE_NAME) service: string) {
    this.limiter = keyedRateLimiter(redis, { points: config.MEDIA_UPLOADS_PER_USER_PER_MINUTE, duration: 60, keyPrefix: `shiliu:${service}:uploadsPerUser` });
  }

  /** Counts one upload call of `ownerId`; throws 429 (with Retry-After) past the limit. */
  consume(ownerId: number): Promise<void> {
    return consumeRateLimit(this.limiter, String(ownerId));
  }
}
