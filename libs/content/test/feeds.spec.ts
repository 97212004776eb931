import { documentedAnswerProblems, requireEnv } from '@shiliu/platform/testing';
import { Redis } from 'ioredis';
import { ViewCounter } from '../src/posts/view-counter';
import { ContentTestApp, noteForm, type PostData, type PostPageData, type TestUser } from './content-test-app';

/** Feeds: the recommend channel, category channels, filters, and pages that hold still while notes arrive. */
describe('feeds', () => {
  let app: ContentTestApp;
  let alice: TestUser;
  let bob: TestUser;
  const ids: Record<string, number> = {};

  /** A note dated in the past (as if published then), with counters as if people had reacted. */
  const dated = async (name: string, author: TestUser, daysAgo: number, counts: Partial<Record<'like_count' | 'collect_count' | 'comment_count' | 'view_count', number>>, form: Record<string, unknown> = {}) => {
    const { body } = await app.call<PostData>('POST', '/api/posts', { token: author.token, body: await noteForm(app, { title: name, ...form }) });
    ids[name] = body.data.id;
    await app.query(
      `UPDATE "posts" SET "created_at" = now() - make_interval(days => $2), "like_count" = $3, "collect_count" = $4, "comment_count" = $5, "view_count" = $6 WHERE "id" = $1`,
      [body.data.id, daysAgo, counts.like_count ?? 0, counts.collect_count ?? 0, counts.comment_count ?? 0, counts.view_count ?? 0],
    );
  };

  const titles = (page: PostPageData) => page.posts.map((post) => post.title);

  beforeAll(async () => {
    app = await ContentTestApp.start();
    alice = await app.user({ nickname: '爱丽丝' });
    bob = await app.user({ nickname: '鲍勃' });
    await dated('新而冷清', alice, 0, {}, { category_id: 2 });
    await dated('新而热门', alice, 0, { like_count: 40, collect_count: 10, comment_count: 5 }, { category_id: 2 });
    await dated('旧而热门', bob, 60, { like_count: 200, collect_count: 50 }, { category_id: 1 });
    await dated('只有浏览', bob, 1, { view_count: 100 }, { category_id: 1, content: '<p>期末复习计划</p>' });
    await dated('三天前的热帖', bob, 3, { like_count: 30, comment_count: 10 }, { category_id: 2 });
  });

  afterAll(async () => {
    await app?.close();
  });

  it('ranks the recommend channel by engagement that decays with age, not by views alone', async () => {
    const answer = await app.call<PostPageData>('GET', '/api/posts');
    expect(answer.status).toBe(200);
    const order = titles(answer.body.data);
    expect(order[0]).toBe('新而热门');
    expect(order.indexOf('新而热门')).toBeLessThan(order.indexOf('新而冷清'));
    // Two months old with many likes ranks below a fresh note with fewer.
    expect(order.indexOf('三天前的热帖')).toBeLessThan(order.indexOf('旧而热门'));
    // A hundred views do less than a like-, collect- and comment-rich note of the same age.
    expect(order.indexOf('新而热门')).toBeLessThan(order.indexOf('只有浏览'));
    expect(answer.body.data.pagination).toMatchObject({ page: 1, limit: 20, total: 5, pages: 1 });
    expect((await app.call<PostPageData>('GET', '/api/posts?category=recommend')).body.data.posts.map((p) => p.id)).toEqual(answer.body.data.posts.map((p) => p.id));
  });

  it('lists a category channel newest first', async () => {
    const food = await app.call<PostPageData>('GET', '/api/posts?category=food');
    expect(titles(food.body.data)).toEqual(['新而热门', '新而冷清', '三天前的热帖']);
    expect(food.body.data.posts.every((post) => post.category_title === 'food')).toBe(true);
    expect((await app.call<PostPageData>('GET', '/api/posts?category=nothing-here')).body.data.posts).toEqual([]);
  });

  it('filters by type, author, keyword, and sorts on request', async () => {
    const video = await app.call<PostData>('POST', '/api/posts', { token: alice.token, body: await noteForm(app, { title: '视频笔记', type: 2, images: [], video: { url: await app.video() } }) });
    expect(titles((await app.call<PostPageData>('GET', '/api/posts?type=2')).body.data)).toEqual(['视频笔记']);
    expect(titles((await app.call<PostPageData>('GET', '/api/posts?type=1')).body.data)).not.toContain('视频笔记');
    const byBob = await app.call<PostPageData>('GET', `/api/posts?user_id=${bob.userId}`);
    expect(titles(byBob.body.data)).toEqual(['只有浏览', '三天前的热帖', '旧而热门']);
    expect(titles((await app.call<PostPageData>('GET', '/api/posts?keyword=复习')).body.data)).toEqual(['只有浏览']);
    expect(titles((await app.call<PostPageData>('GET', '/api/posts?keyword=%25')).body.data)).toEqual([]);
    expect(titles((await app.call<PostPageData>('GET', '/api/posts?sort=likes')).body.data)[0]).toBe('旧而热门');
    expect(titles((await app.call<PostPageData>('GET', `/api/users/${bob.userId}/posts?sort=views`)).body.data)[0]).toBe('只有浏览');
    const profile = await app.call<PostPageData>('GET', `/api/users/${alice.userId}/posts?category=food&keyword=热门`);
    expect(titles(profile.body.data)).toEqual(['新而热门']);
    await app.call('DELETE', `/api/posts/${video.body.data.id}`, { token: alice.token });
  });

  it('starts a video note\'s images with its cover in the feed, the profile tabs and the detail, so a card reading images[0] shows it', async () => {
    const form = await noteForm(app, { title: '带封面的视频', type: 2, images: [], video: { url: await app.video(), coverUrl: await app.image() } });
    const id = (await app.call<PostData>('POST', '/api/posts', { token: alice.token, body: form })).body.data.id;
    await app.call('POST', `/api/posts/${id}/collect`, { token: bob.token });
    try {
      const lists: [string, string, 'posts' | 'collections'][] = [
        ['GET /api/posts', '/api/posts?type=2', 'posts'],
        ['GET /api/users/{user_id}/posts', `/api/users/${alice.userId}/posts?type=2`, 'posts'],
        ['GET /api/users/{user_id}/collections', `/api/users/${bob.userId}/collections`, 'collections'],
      ];
      for (const [operation, path, field] of lists) {
        const answer = await app.call<Record<typeof field, PostData[]>>('GET', path, { token: bob.token });
        expect([path, answer.status, documentedAnswerProblems(operation, answer.body)]).toEqual([path, 200, []]);
        const card = answer.body.data[field].find((post) => post.id === id)!;
        expect([path, card.images, card.image, card.cover_url]).toEqual([path, [card.cover_url], expect.stringMatching(/^\/api\/files\//), card.image]);
      }
      const detail = await app.call<PostData>('GET', `/api/posts/${id}?skipViewCount=true`);
      expect(detail.body.data.images).toEqual([detail.body.data.cover_url]);
      const picture = (await app.call<PostPageData>('GET', `/api/users/${alice.userId}/posts?type=1`)).body.data.posts[0];
      expect(picture.images[0]).toBe(picture.cover_url);
      expect(picture.images).toHaveLength(1);
    } finally {
      await app.call('DELETE', `/api/posts/${id}`, { token: alice.token });
    }
  });

  it('keeps pages stable while new notes arrive: no duplicates, no gaps', async () => {
    for (let i = 0; i < 7; i++) await dated(`第${i}篇`, alice, 5 + i, { like_count: i });
    const first = await app.call<PostPageData>('GET', '/api/posts?limit=4');
    const { snapshot, total } = first.body.data.pagination;
    expect(total).toBe(12);
    // Notes published (and a hot one at that) while the reader scrolls.
    await dated('刚刚发布', bob, 0, { like_count: 500 });
    await dated('又一篇', bob, 0, {});
    const seen = [...first.body.data.posts.map((post) => post.id)];
    for (let page = 2; page <= 3; page++) {
      const next = await app.call<PostPageData>('GET', `/api/posts?limit=4&page=${page}&snapshot=${encodeURIComponent(snapshot)}`);
      expect(next.body.data.pagination).toMatchObject({ total: 12, snapshot });
      seen.push(...next.body.data.posts.map((post) => post.id));
    }
    expect(seen).toHaveLength(12);
    expect(new Set(seen).size).toBe(12);
    expect(seen).not.toContain(ids['刚刚发布']);
    // A new first page shows what arrived.
    expect(titles((await app.call<PostPageData>('GET', '/api/posts?limit=4')).body.data)[0]).toBe('刚刚发布');
    // Epoch milliseconds work as well as ISO time.
    const byMs = await app.call<PostPageData>('GET', `/api/posts?limit=4&page=3&snapshot=${Date.parse(snapshot)}`);
    expect(byMs.body.data.pagination.total).toBe(12);
  });

  it('pages through a category channel with limit and page', async () => {
    const page1 = await app.call<PostPageData>('GET', '/api/posts?category=study&limit=2');
    const page2 = await app.call<PostPageData>('GET', `/api/posts?category=study&limit=2&page=2&snapshot=${page1.body.data.pagination.snapshot}`);
    expect(page1.body.data.posts).toHaveLength(2);
    const all = [...page1.body.data.posts, ...page2.body.data.posts].map((post) => Date.parse(String(post.created_at)));
    expect(all).toEqual([...all].sort((a, b) => b - a));
    expect(page1.body.data.pagination.pages).toBe(Math.ceil(page1.body.data.pagination.total / 2));
  });
});

/** The moving orders (engagement, likes, views) page over the ranking page 1 was drawn from, in both modes. */
describe.each([
  ['embedded (rankings in memory)', false],
  ['distributed (rankings in Redis)', true],
])('a scroll through the recommend feed while people react, %s', (_mode, withRedis) => {
  let redis: Redis | null = null;
  let app: ContentTestApp;
  let author: TestUser;
  let fans: TestUser[];
  const noteIds: number[] = [];

  beforeAll(async () => {
    redis = withRedis ? new Redis(requireEnv('REDIS_URL')) : null;
    app = await ContentTestApp.start(redis ? { redis } : {});
    author = await app.user();
    fans = [await app.user(), await app.user(), await app.user()];
    for (let i = 0; i < 20; i++) {
      noteIds.push((await app.call<PostData>('POST', '/api/posts', { token: author.token, body: await noteForm(app, { title: `滚动${i}` }) })).body.data.id);
    }
  });

  afterAll(async () => {
    await app?.close();
    redis?.disconnect();
  });

  it('shows every note once across ten pages although likes and views reorder them meanwhile', async () => {
    const first = await app.call<PostPageData>('GET', '/api/posts?limit=2');
    const { snapshot } = first.body.data.pagination;
    const seen = first.body.data.posts.map((post) => post.id);
    for (let page = 2; page <= 10; page++) {
      // The oldest note not yet liked, ranked last when the scroll began, gets liked to the top, and the next note
      // in line gets viewed.
      for (const fan of fans) await app.call('POST', '/api/likes', { token: fan.token, body: { target_type: 1, target_id: noteIds[page - 2] } });
      const unseen = noteIds.filter((id) => !seen.includes(id));
      await app.call('GET', `/api/posts/${unseen[unseen.length - 1]}`, { token: fans[page % fans.length].token });
      await app.service.app.get(ViewCounter).flush();
      const next = await app.call<PostPageData>('GET', `/api/posts?limit=2&page=${page}&snapshot=${encodeURIComponent(snapshot)}`);
      expect(next.body.data.pagination).toMatchObject({ page, total: 20, snapshot });
      seen.push(...next.body.data.posts.map((post) => post.id));
    }
    expect(seen).toHaveLength(20);
    expect([...seen].sort((a, b) => a - b)).toEqual([...noteIds].sort((a, b) => a - b));
    // A first page without a snapshot is the present: the liked notes lead it.
    const now = await app.call<PostPageData>('GET', '/api/posts?limit=2');
    expect(now.body.data.posts.every((post) => post.like_count === fans.length)).toBe(true);
    // A snapshot no ranking was kept for (expired, or made up) pages over the live order.
    const unknown = await app.call<PostPageData>('GET', `/api/posts?limit=2&page=2&snapshot=${Date.parse(snapshot) - 1}`);
    expect(unknown.body.data.posts).toHaveLength(2);
    expect(unknown.body.data.pagination).toMatchObject({ page: 2, total: 20 });
  });
});
