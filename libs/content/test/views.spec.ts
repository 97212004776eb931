import { Redis } from 'ioredis';
import { Client } from 'pg';
import { isLoopback, requireEnv, waitFor } from '@shiliu/platform/testing';
import { ViewCounter } from '../src/posts/view-counter';
import { ReadCache } from '../src/shared/read-cache';
import { ContentTestApp, noteForm, type PostData, type TestUser } from './content-test-app';

/**
 * View counting, in both modes: once per viewer per hour, no write to the note's row on the read path, and the
 * row exact within a minute (the tally is flushed every few seconds).
 */
describe.each([
  ['embedded (markers in memory)', false],
  ['distributed (markers in Redis)', true],
])('view counting, %s', (_mode, withRedis) => {
  let redis: Redis | null = null;
  let app: ContentTestApp;
  // The test app trusts its loopback callers as a deployed service trusts its proxy; one test turns that off.
  let trustLoopback = true;
  let author: TestUser;
  let reader: TestUser;
  let postId: number;

  const views = async (options: { token?: string; headers?: Record<string, string>; query?: string } = {}) =>
    (await app.call<PostData>('GET', `/api/posts/${postId}${options.query ?? ''}`, options)).body.data.view_count;
  const rowCount = async () => (await app.query<{ view_count: number }>(`SELECT "view_count" FROM "posts" WHERE "id" = $1`, [postId]))[0].view_count;

  beforeAll(async () => {
    redis = withRedis ? new Redis(requireEnv('REDIS_URL')) : null;
    app = await ContentTestApp.start({ ...(redis ? { redis } : {}), trustProxy: (address) => trustLoopback && isLoopback(address) });
    author = await app.user();
    reader = await app.user();
    postId = (await app.call<PostData>('POST', '/api/posts', { token: author.token, body: await noteForm(app) })).body.data.id;
  });

  afterAll(async () => {
    jest.useRealTimers();
    await app?.close();
    redis?.disconnect();
  });

  it('counts a logged-in viewer once per hour, whatever the client sends', async () => {
    expect(await views({ token: reader.token })).toBe(1);
    expect(await views({ token: reader.token })).toBe(1);
    expect(await views({ token: reader.token, headers: { 'user-agent': 'another browser', cookie: 'viewed=0' } })).toBe(1);
  });

  it('counts a logged-out viewer by address and user agent', async () => {
    expect(await views({ headers: { 'user-agent': 'browser A' } })).toBe(2);
    expect(await views({ headers: { 'user-agent': 'browser A' } })).toBe(2);
    expect(await views({ headers: { 'user-agent': 'browser B' } })).toBe(3);
    // A forged forwarding header does not make a new viewer from a client that is not a configured proxy (the test
    // app, like a deployed service, trusts loopback by default).
    trustLoopback = false;
    try {
      expect(await views({ headers: { 'user-agent': 'browser A', 'x-forwarded-for': '203.0.113.9' } })).toBe(3);
    } finally {
      trustLoopback = true;
    }
  });

  it('honours skipViewCount=true', async () => {
    expect(await views({ headers: { 'user-agent': 'browser C' }, query: '?skipViewCount=true' })).toBe(3);
    expect(await views({ headers: { 'user-agent': 'browser C' } })).toBe(4);
  });

  it('brings the note’s row to the exact count within a minute, and the detail stays exact across the flush', async () => {
    await waitFor('the view tally to reach the row', async () => (await rowCount()) === 4, 60_000, 250);
    expect(await views({ query: '?skipViewCount=true' })).toBe(4);
  });

  it('keeps a cached detail across a flush, taking on the views the row took, and never shows fewer meanwhile', async () => {
    const cached = () => app.service.app.get(ReadCache).details.get(String(postId));
    expect(await views({ headers: { 'user-agent': 'browser F' } })).toBe(5);
    const during: number[] = [];
    let flushed = false;
    const flush = app.service.app.get(ViewCounter).flush().then(() => (flushed = true));
    while (!flushed) during.push(await views({ query: '?skipViewCount=true' }));
    await flush;
    expect(Math.min(...during)).toBeGreaterThanOrEqual(5);
    // In Redis a flush already under way (the service's own, every few seconds) makes another return at once.
    const flushedUntil = (count: number) =>
      waitFor(`the row at ${count} views`, async () => {
        await app.service.app.get(ViewCounter).flush();
        return (await rowCount()) === count;
      });
    await flushedUntil(5);

    // Until the row has the new view the cached detail keeps the count it had: holding the row keeps every flush
    // (the service's own comes every few seconds) from bringing it there meanwhile.
    const holder = new Client({ connectionString: requireEnv('DATABASE_URL') });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query(`SELECT 1 FROM "${app.schema}"."posts" WHERE "id" = $1 FOR UPDATE`, [postId]);
      expect(await views({ headers: { 'user-agent': 'browser G' } })).toBe(6);
      expect(cached()?.view_count).toBe(5);
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }
    await flushedUntil(6);
    // The flush that brought the row there may be the service's own, still on its way to the cache: once a notice
    // sent now has come back, the flush's has been applied.
    await app.service.app.get(ReadCache).settle();
    // Still kept, with the view the row took: a flush used to drop every note it touched from the cache.
    expect(cached()?.view_count).toBe(6);
    expect(await views({ query: '?skipViewCount=true' })).toBe(6);
  });

  it('forgets a note’s tally once its row has it: a flush with nothing counted writes nothing', async () => {
    const counter = app.service.app.get(ViewCounter);
    if (redis) {
      const tally = `shiliu:${app.schema}:views:pending`;
      await waitFor('the tally to be empty', async () => {
        await counter.flush();
        return (await redis!.hlen(tally)) === 0;
      }, 10_000);
    }
    const version = async () => (await app.query<{ xmin: string }>(`SELECT "xmin"::text FROM "posts" WHERE "id" = $1`, [postId]))[0].xmin;
    await counter.flush();
    const before = await version();
    await counter.flush();
    await counter.flush();
    expect(await version()).toBe(before);
  });

  it('never waits for the note’s row lock: a view is counted while a like holds the row', async () => {
    const other = new Client({ connectionString: requireEnv('DATABASE_URL') });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query(`SELECT 1 FROM "${app.schema}"."posts" WHERE "id" = $1 FOR UPDATE`, [postId]);
      expect(await views({ headers: { 'user-agent': 'browser D' } })).toBe(7);
    } finally {
      await other.query('ROLLBACK');
      await other.end();
    }
  });

  it('counts the same viewer again once the hour has passed', async () => {
    if (redis) {
      // Redis expires the marker itself; its expiry is what the hour is.
      const keys = await redis.keys(`shiliu:${app.schema}:views:seen:${postId}:u:${reader.id}`);
      expect(keys).toHaveLength(1);
      expect(await redis.ttl(keys[0])).toBeGreaterThan(3500);
      await redis.del(keys[0]);
    } else {
      jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'setTimeout', 'setInterval', 'clearTimeout', 'clearInterval', 'queueMicrotask'] });
      jest.setSystemTime(Date.now() + 61 * 60_000);
    }
    // A token signed now, since an hour later the reader's first one has expired.
    const token = await app.token(reader.id, reader.userId);
    expect(await views({ token })).toBe(8);
    expect(await views({ token })).toBe(8);
    jest.useRealTimers();
  });

  it('loses no counted view at shutdown', async () => {
    await views({ headers: { 'user-agent': 'browser E' } });
    await app.service.app.get(ViewCounter).flush();
    expect(await rowCount()).toBe(9);
  });
});
