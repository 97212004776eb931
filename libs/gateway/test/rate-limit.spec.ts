import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { requireEnv } from '@shiliu/platform/testing';
import { consume, createRateLimiter } from '../src';


/** Rate limits live in Redis in distributed mode so every gateway replica shares one count. */
describe('rate limiting', () => {
  it('counts in Redis across limiter instances and tells how long to wait', async () => {
    const redis = new Redis(requireEnv('REDIS_URL'));
    try {
      const key = `client-${randomUUID()}`;
      const first = createRateLimiter({ points: 3, windowSeconds: 60 }, redis);
      const second = createRateLimiter({ points: 3, windowSeconds: 60 }, redis);
      expect(await consume(first, key)).toBe(0);
      expect(await consume(second, key)).toBe(0);
      expect(await consume(first, key)).toBe(0);
      const wait = await consume(second, key);
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(60);
      expect(await redis.exists(`shiliu:gateway:rl:${key}`)).toBe(1);
    } finally {
      redis.disconnect();
    }
  });

  it('counts in memory in embedded mode', async () => {
    const limiter = createRateLimiter({ points: 1, windowSeconds: 60 });
    expect(await consume(limiter, 'a')).toBe(0);
    expect(await consume(limiter, 'a')).toBeGreaterThan(0);
    expect(await consume(limiter, 'b')).toBe(0);
  });
});
