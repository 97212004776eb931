import { randomUUID } from 'node:crypto';
import { RateLimiter } from '../src';
import { requireEnv, waitFor } from '@shiliu/platform/testing';
import { Redis } from 'ioredis';

// Two gateway replicas' limiters over the real Redis; each test has a key prefix of its own.
describe('RateLimiter', () => {
  let redis: Redis;
  const limiters: RateLimiter[] = [];
  /** Mid-window, so that no test runs into the next minute. */
  let clock = 0;
  const replica = (points: number, prefix: string, shared: Redis | undefined = redis, syncEveryMs = 0) => {
    const limiter = new RateLimiter({ points, windowSeconds: 60 }, shared, undefined, {
      keyPrefix: prefix,
      now: () => clock,
      // By default every share happens where the test says; a timer's could add a refused call to the count mid-test.
      syncEveryMs,
    });
    limiters.push(limiter);
    return limiter;
  };

  beforeAll(() => {
    redis = new Redis(requireEnv('REDIS_URL'), { maxRetriesPerRequest: 1 });
  });
  beforeEach(() => {
    clock = 1_000 * 60_000 + 30_000;
  });
  afterEach(() => {
    limiters.splice(0).forEach((limiter) => limiter.close());
  });
  afterAll(() => redis.disconnect());

  it('lets a client make its calls and refuses the next one, naming the seconds to the window’s end', () => {
    const limiter = replica(3, `test:rl:${randomUUID()}`, undefined);
    expect([limiter.consume('10.0.0.1'), limiter.consume('10.0.0.1'), limiter.consume('10.0.0.1')]).toEqual([0, 0, 0]);
    expect(limiter.consume('10.0.0.1')).toBe(30);
    // Another address has a count of its own, and the next window starts afresh.
    expect(limiter.consume('10.0.0.2')).toBe(0);
    clock += 30_000;
    expect(limiter.consume('10.0.0.1')).toBe(0);
  });

  it('shares one count among replicas through Redis', async () => {
    const prefix = `test:rl:${randomUUID()}`;
    const [a, b] = [replica(5, prefix), replica(5, prefix)];
    for (let i = 0; i < 4; i++) expect(a.consume('10.0.0.1')).toBe(0);
    await a.sync();
    expect(b.consume('10.0.0.1')).toBe(0);
    await b.sync();
    // Five calls in all, four through a and one through b: the sixth is refused whichever replica it reaches.
    expect(b.consume('10.0.0.1')).toBeGreaterThan(0);
    await a.sync();
    expect(a.consume('10.0.0.1')).toBe(0);
    await a.sync();
    expect(a.consume('10.0.0.1')).toBeGreaterThan(0);
    expect(Number(await redis.get(`${prefix}:${Math.floor(clock / 60_000)}:10.0.0.1`))).toBe(6);
    expect(await redis.pttl(`${prefix}:${Math.floor(clock / 60_000)}:10.0.0.1`)).toBeGreaterThan(60_000);
  });

  it('shares its counts on its own timer', async () => {
    const prefix = `test:rl:${randomUUID()}`;
    const limiter = replica(5, prefix, redis, 20);
    for (let i = 0; i < 3; i++) limiter.consume('10.0.0.1');
    const key = `${prefix}:${Math.floor(clock / 60_000)}:10.0.0.1`;
    await waitFor('the timer to share three calls', async () => Number(await redis.get(key)) === 3, 60_000, 20);
  });

  it('counts in memory while Redis is unreachable and adds those calls once it answers again', async () => {
    const prefix = `test:rl:${randomUUID()}`;
    const late = new Redis(requireEnv('REDIS_URL'), { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    try {
      const limiter = replica(2, prefix, late);
      expect([limiter.consume('10.0.0.1'), limiter.consume('10.0.0.1')]).toEqual([0, 0]);
      await limiter.sync();
      expect(limiter.consume('10.0.0.1')).toBeGreaterThan(0);
      expect(await redis.exists(`${prefix}:${Math.floor(clock / 60_000)}:10.0.0.1`)).toBe(0);
      // The failed attempt set the lazy client connecting; the next sync finds it ready.
      if (late.status !== 'ready') await new Promise((resolve) => late.once('ready', resolve));
      await limiter.sync();
      expect(Number(await redis.get(`${prefix}:${Math.floor(clock / 60_000)}:10.0.0.1`))).toBe(3);
    } finally {
      late.disconnect();
    }
  });
});
