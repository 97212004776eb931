import { ContentTestApp } from './content-test-app';
import { contentService, defaultCategories } from '../src';
import { demoChannels } from '../src/seed/demo-text';

/** The embedded default's first-start demo content, on real PostgreSQL with 30 demo users. */
describe('demo seed', () => {
  let app: ContentTestApp;

  beforeAll(async () => {
    app = await ContentTestApp.start();
    for (let i = 0; i < 30; i++) await app.user({ nickname: `同学${i}` });
    await contentService.seed!(app.service.app, { notes: 300 });
  }, 180_000);

  afterAll(async () => {
    await app?.close();
  });

  it('publishes about 300 notes across every category, dated over the past months', async () => {
    const [stats] = await app.query<{ notes: number; categories: number; oldest_days: number; newest_days: number; authors: number }>(
      `SELECT count(*)::int AS "notes", count(DISTINCT "category_id")::int AS "categories", count(DISTINCT "author_id")::int AS "authors",
         extract(day FROM now() - min("created_at"))::int AS "oldest_days", extract(day FROM now() - max("created_at"))::int AS "newest_days"
       FROM "posts" WHERE NOT "is_draft"`,
    );
    expect(stats.notes).toBe(300);
    expect(stats.categories).toBe(defaultCategories.length);
    expect(stats.authors).toBeGreaterThan(20);
    expect(stats.oldest_days).toBeGreaterThan(60);
    expect(stats.newest_days).toBeLessThan(7);
    expect((await app.events('post.published')).length).toBe(300);
  });

  it('stores the images in the object store, where the notes point', async () => {
    const feed = await app.call<{ posts: { type: number; cover_url: string | null; video_url: string | null; aspectRatio: number; title: string }[] }>('GET', '/api/posts?limit=50');
    expect(feed.body.data.posts).toHaveLength(50);
    for (const post of feed.body.data.posts) {
      if (post.type === 1) expect(post.aspectRatio).toBeGreaterThan(0);
      expect(post.title).toMatch(/[\u4e00-\u9fff]/);
      expect(await app.storage.stat(post.cover_url!.replace('/api/files/', ''))).toMatchObject({ contentType: 'image/jpeg' });
      if (post.type === 2) expect(await app.storage.stat(post.video_url!.replace('/api/files/', ''))).toMatchObject({ contentType: 'video/mp4' });
    }
    // This machine has ffmpeg, so the notes written as video notes have their clip.
    expect(feed.body.data.posts.filter((post) => post.type === 2).length).toBeGreaterThan(0);
  });

  it('opens on notes that do not repeat a title, each with the images of its channel', async () => {
    const newest = await app.query<{ title: string; category: string; cover: string }>(
      `SELECT p."title", c."category_title" AS "category", p."cover_url" AS "cover" FROM "posts" p JOIN "categories" c ON c."id" = p."category_id"
       ORDER BY p."created_at" DESC LIMIT 100`,
    );
    expect(new Set(newest.map((note) => note.title)).size).toBe(100);
    const subjects = new Map(demoChannels.map((channel) => [channel.category, channel.subject]));
    for (const note of newest) expect(note.cover).toContain(`/demo/content/${subjects.get(note.category)}-`);
    const feed: string[] = [];
    for (const page of [1, 2]) feed.push(...(await app.call<{ posts: { title: string }[] }>('GET', `/api/posts?limit=50&page=${page}`)).body.data.posts.map((post) => post.title));
    expect(new Set(feed).size).toBe(feed.length);
  });

  it('adds tags, comments with replies, likes and collections whose counts match their rows', async () => {
    const [mismatch] = await app.query<{ likes: number; collections: number; comments: number }>(
      `SELECT
         count(*) FILTER (WHERE p."like_count" <> (SELECT count(*) FROM "likes" l WHERE l."target_type" = 1 AND l."target_id" = p."id"))::int AS "likes",
         count(*) FILTER (WHERE p."collect_count" <> (SELECT count(*) FROM "collections" k WHERE k."post_id" = p."id"))::int AS "collections",
         count(*) FILTER (WHERE p."comment_count" <> (SELECT count(*) FROM "comments" c WHERE c."post_id" = p."id"))::int AS "comments"
       FROM "posts" p`,
    );
    expect(mismatch).toEqual({ likes: 0, collections: 0, comments: 0 });
    const [totals] = await app.query<{ likes: number; collections: number; comments: number; replies: number; tags: number }>(
      `SELECT (SELECT count(*) FROM "likes")::int AS "likes", (SELECT count(*) FROM "collections")::int AS "collections",
         (SELECT count(*) FROM "comments" WHERE "parent_id" IS NULL)::int AS "comments", (SELECT count(*) FROM "comments" WHERE "parent_id" IS NOT NULL)::int AS "replies",
         (SELECT count(*) FROM "tags" WHERE "use_count" > 0)::int AS "tags"`,
    );
    expect(totals.likes).toBeGreaterThan(500);
    expect(totals.collections).toBeGreaterThan(100);
    expect(totals.comments).toBeGreaterThan(200);
    expect(totals.replies).toBeGreaterThan(50);
    expect(totals.tags).toBeGreaterThan(30);
    expect((await app.call<unknown[]>('GET', '/api/tags/hot?limit=5')).body.data).toHaveLength(5);
  });
});
