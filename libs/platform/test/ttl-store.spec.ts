import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { MemoryTtlStore, RedisTtlStore, type TtlStore } from '../src';
import { requireEnv } from '../src/testing';

let redis: Redis;
beforeAll(() => {
  redis = new Redis(requireEnv('REDIS_URL'));
});
afterAll(() => {
  redis.disconnect();
});

describe.each([
  ['in memory', () => new MemoryTtlStore()],
  ['in Redis', () => new RedisTtlStore(redis, `shiliu:test:ttl-store:${randomUUID()}:`)],
])('short-lived values %s', (_where, make: () => TtlStore) => {
  it('reads a value as often as asked, takes it once, and sets it only when absent', async () => {
    const store = make();
    expect(await store.get('a')).toBeNull();
    await store.set('a', 'one', 60);
    expect(await store.get('a')).toBe('one');
    expect(await store.get('a')).toBe('one');
    expect(await store.setIfAbsent('a', 'two', 60)).toBe(false);
    expect(await store.take('a')).toBe('one');
    expect(await store.get('a')).toBeNull();
    expect(await store.setIfAbsent('a', 'two', 60)).toBe(true);
    expect(await store.get('a')).toBe('two');
  });
});

describe('a bounded memory store', () => {
  it('drops its oldest entry past its size, a rewritten key counting as new', async () => {
    const store = new MemoryTtlStore(2);
    await store.set('a', '1', 60);
    await store.set('b', '2', 60);
    await store.set('a', '3', 60);
    await store.set('c', '4', 60);
    expect([await store.get('a'), await store.get('b'), await store.get('c')]).toEqual(['3', null, '4']);
  });
});

describe('a memory store full of live entries', () => {
  afterEach(() => jest.restoreAllMocks());

  /** The store's own map, private to it. */
  const entriesOf = (store: MemoryTtlStore): Map<string, unknown> => (store as unknown as { values: Map<string, unknown> }).values;

  it('walks its entries once per doubling, not on every set', async () => {
    const store = new MemoryTtlStore();
    for (let index = 0; index < 10_000; index++) await store.set(`live:${index}`, '1', 3600);
    const walks = jest.spyOn(Map.prototype, Symbol.iterator);
    for (let index = 0; index < 5_000; index++) await store.set(`more:${index}`, '1', 3600);
    const ownWalks = walks.mock.contexts.filter((map) => map === entriesOf(store)).length;
    expect(ownWalks).toBe(1);
  });

  it('still drops what has expired once it has grown enough', async () => {
    const store = new MemoryTtlStore();
    const now = Date.now();
    for (let index = 0; index < 10_000; index++) await store.set(`short:${index}`, '1', 1);
    jest.spyOn(Date, 'now').mockReturnValue(now + 2_000);
    for (let index = 0; index < 10_000; index++) await store.set(`later:${index}`, '1', 3600);
    expect(entriesOf(store).has('short:0')).toBe(false);
    expect(await store.get('later:9999')).toBe('1');
    expect(entriesOf(store).size).toBeLessThan(20_000);
  });
});
