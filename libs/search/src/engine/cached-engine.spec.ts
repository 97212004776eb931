import { CachedSearchEngine, CHANGE_SHOWS_MS } from './cached-engine';
import type { PostHits, PostQuery, SearchEngine } from './search-engine';

const query = (terms: string[], overrides: Partial<PostQuery> = {}): PostQuery => ({ terms, tag: null, kind: 'all', offset: 0, limit: 20, ...overrides });

function engineAnswering(answer: (query: PostQuery) => Promise<PostHits>) {
  const asked: PostQuery[] = [];
  const engine = {
    searchPosts: jest.fn((q: PostQuery) => {
      asked.push(q);
      return answer(q);
    }),
    searchUsers: jest.fn(async () => ({ ids: [7], total: 1 })),
    suggest: jest.fn(async () => [{ kind: 'tag' as const, text: '野餐' }]),
    indexPost: jest.fn(async () => undefined),
    removePost: jest.fn(async () => undefined),
    indexUser: jest.fn(async () => undefined),
    removeUser: jest.fn(async () => undefined),
  } satisfies SearchEngine;
  return { engine, asked };
}

/** Until announcements are heard (`changed`), every answer is kept the settling window only. */
const WINDOWS = { quietMs: 10_000, settlingMs: 250 };

describe('CachedSearchEngine', () => {
  let clock = 1_000;
  const now = () => clock;
  beforeEach(() => (clock = 1_000));

  it('asks once for the same question within the window, and again after it', async () => {
    const { engine, asked } = engineAnswering(async () => ({ ids: [asked.length], total: 1, tagStats: [] }));
    const cached = new CachedSearchEngine(engine, WINDOWS, 100, now);
    const first = await cached.searchPosts(query(['野餐']));
    clock += 249;
    expect(await cached.searchPosts(query(['野餐']))).toBe(first);
    expect(asked).toHaveLength(1);
    // Past its window the answer is still given while one question replaces it; the next asker has the new one.
    clock += 1;
    const [a, b] = await Promise.all([cached.searchPosts(query(['野餐'])), cached.searchPosts(query(['野餐']))]);
    expect(a).toBe(first);
    expect(b).toBe(first);
    expect(asked).toHaveLength(2);
    await new Promise(setImmediate);
    expect((await cached.searchPosts(query(['野餐']))).ids).toEqual([2]);
    expect(asked).toHaveLength(2);
  });

  it('never gives an answer older than two windows: past that the asker waits for a new one', async () => {
    const { engine, asked } = engineAnswering(async () => ({ ids: [asked.length], total: 1, tagStats: [] }));
    const cached = new CachedSearchEngine(engine, WINDOWS, 100, now);
    await cached.searchPosts(query(['野餐']));
    clock += 500;
    expect((await cached.searchPosts(query(['野餐']))).ids).toEqual([2]);
  });

  it('keeps giving the last answer while its replacement fails, until two windows have passed', async () => {
    let fail = false;
    const { engine, asked } = engineAnswering(async () => {
      if (fail) throw new Error('cluster down');
      return { ids: [asked.length], total: 1, tagStats: [] };
    });
    const cached = new CachedSearchEngine(engine, WINDOWS, 100, now);
    const first = await cached.searchPosts(query(['野餐']));
    fail = true;
    clock += 300;
    expect(await cached.searchPosts(query(['野餐']))).toBe(first);
    clock += 199;
    expect(await cached.searchPosts(query(['野餐']))).toBe(first);
    clock += 1;
    await expect(cached.searchPosts(query(['野餐']))).rejects.toThrow('cluster down');
  });

  it('shares one answer among identical questions asked while it is out', async () => {
    let answer!: (hits: PostHits) => void;
    const { engine, asked } = engineAnswering(() => new Promise((resolve) => (answer = resolve)));
    const cached = new CachedSearchEngine(engine, WINDOWS, 100, now);
    const all = Promise.all([cached.searchPosts(query(['野餐'])), cached.searchPosts(query(['野餐'])), cached.searchPosts(query(['野餐']))]);
    answer({ ids: [1, 2], total: 2, tagStats: [] });
    const [a, b, c] = await all;
    expect(asked).toHaveLength(1);
    expect(b).toBe(a);
    expect(c).toBe(a);
  });

  it('tells questions apart by every part of them', async () => {
    const { engine, asked } = engineAnswering(async () => ({ ids: [], total: 0, tagStats: [] }));
    const cached = new CachedSearchEngine(engine, WINDOWS, 100, now);
    const variants = [
      query(['野餐']),
      query(['野', '餐']),
      query(['野餐'], { tag: '野餐' }),
      query(['野餐'], { kind: 'videos' }),
      query(['野餐'], { offset: 20 }),
      query(['野餐'], { limit: 10 }),
    ];
    for (const variant of variants) await cached.searchPosts(variant);
    await cached.searchUsers('野餐', 0, 20);
    await cached.suggest('野餐', 10);
    expect(asked).toEqual(variants);
    expect(engine.searchUsers).toHaveBeenCalledTimes(1);
    expect(engine.suggest).toHaveBeenCalledTimes(1);
  });

  it('never keeps a failure: the next question asks again', async () => {
    let fail = true;
    const { engine, asked } = engineAnswering(async () => {
      if (fail) throw new Error('cluster down');
      return { ids: [1], total: 1, tagStats: [] };
    });
    const cached = new CachedSearchEngine(engine, WINDOWS, 100, now);
    await expect(cached.searchPosts(query(['野餐']))).rejects.toThrow('cluster down');
    fail = false;
    expect((await cached.searchPosts(query(['野餐']))).ids).toEqual([1]);
    expect(asked).toHaveLength(2);
  });

  it('holds at most its bound, letting the oldest questions go first', async () => {
    const { engine, asked } = engineAnswering(async () => ({ ids: [], total: 0, tagStats: [] }));
    const cached = new CachedSearchEngine(engine, WINDOWS, 2, now);
    await cached.searchPosts(query(['一']));
    await cached.searchPosts(query(['二']));
    await cached.searchPosts(query(['三']));
    await cached.searchPosts(query(['三']));
    await cached.searchPosts(query(['二']));
    expect(asked).toHaveLength(3);
    await cached.searchPosts(query(['一']));
    expect(asked).toHaveLength(4);
  });

  it('keeps an answer the quiet window once it was asked after the last change showed', async () => {
    const { engine, asked } = engineAnswering(async () => ({ ids: [asked.length], total: 1, tagStats: [] }));
    const cached = new CachedSearchEngine(engine, WINDOWS, 100, now);
    cached.changed();
    await cached.searchPosts(query(['野餐']));
    // Asked before the change could show: kept the settling window only.
    clock += 250;
    expect((await cached.searchPosts(query(['野餐']))).ids).toEqual([1]);
    await new Promise(setImmediate);
    clock = 1_000 + CHANGE_SHOWS_MS + 500;
    const quiet = await cached.searchPosts(query(['野餐']));
    expect(quiet.ids).toEqual([3]);
    clock += WINDOWS.quietMs - 1;
    expect(await cached.searchPosts(query(['野餐']))).toBe(quiet);
    expect(asked).toHaveLength(3);
  });

  it('holds an answer asked before a change to the settling window from the moment the change is heard', async () => {
    const { engine, asked } = engineAnswering(async () => ({ ids: [asked.length], total: 1, tagStats: [] }));
    const cached = new CachedSearchEngine(engine, WINDOWS, 100, now);
    cached.changed();
    clock += CHANGE_SHOWS_MS;
    const before = await cached.searchPosts(query(['野餐']));
    clock += 5_000;
    expect(await cached.searchPosts(query(['野餐']))).toBe(before);
    cached.changed();
    // Older than two settling windows: the asker waits for a new answer, which is again kept briefly only.
    const after = await cached.searchPosts(query(['野餐']));
    expect(after.ids).toEqual([2]);
    clock += WINDOWS.settlingMs;
    expect(await cached.searchPosts(query(['野餐']))).toBe(after);
    await new Promise(setImmediate);
    expect(asked).toHaveLength(3);
  });

  it('keeps answers the settling window only while changes cannot be heard', async () => {
    const { engine, asked } = engineAnswering(async () => ({ ids: [asked.length], total: 1, tagStats: [] }));
    const cached = new CachedSearchEngine(engine, WINDOWS, 100, now);
    cached.changed();
    clock += CHANGE_SHOWS_MS;
    await cached.searchPosts(query(['野餐']));
    cached.unsure();
    clock += 2 * WINDOWS.settlingMs;
    expect((await cached.searchPosts(query(['野餐']))).ids).toEqual([2]);
    clock += 2 * WINDOWS.settlingMs;
    expect((await cached.searchPosts(query(['野餐']))).ids).toEqual([3]);
  });

  it('passes every write straight to the engine', async () => {
    const { engine } = engineAnswering(async () => ({ ids: [], total: 0, tagStats: [] }));
    const cached = new CachedSearchEngine(engine, WINDOWS, 100, now);
    const post = { id: 1, title: '野餐', content: '', tags: [], type: 1 as const, like_count: 0, created_at: '2026-11-22T00:00:00Z', seq: 3 };
    await cached.indexPost(post);
    await cached.removePost(1, 4);
    await cached.indexUser({ id: 2, user_id: 'u', nickname: 'n', fans_count: 0, seq: 5 });
    await cached.removeUser(2, 6);
    expect(engine.indexPost).toHaveBeenCalledWith(post);
    expect(engine.removePost).toHaveBeenCalledWith(1, 4);
    expect(engine.indexUser).toHaveBeenCalledTimes(1);
    expect(engine.removeUser).toHaveBeenCalledWith(2, 6);
  });
});
