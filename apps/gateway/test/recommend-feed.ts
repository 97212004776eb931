import { randomUUID } from 'node:crypto';
import { waitFor } from '@shiliu/platform/testing';
import { Client } from 'pg';
import sharp from 'sharp';
import { type ProductStack, type RunMode, type StackUser, startProductStack } from './product-stack';

interface Card {
  id: number;
  user_id: string;
  category_id: number;
}
interface FeedPage {
  posts: Card[];
  pagination: { page: number; limit: number; total: number; pages: number; snapshot: string };
}

/** The default categories' ids (migration ContentTables): the student's first love, the burst's, and the rest. */
const STUDY = 1;
const FOOD = 2;
const OTHERS = [3, 4, 5, 6, 7, 8];

/**
 * The personalised 推荐 through the gateway in one run mode: a student's likes shape their first page (with a share
 * from outside their interests and never their own notes), new likes move it within the profile's short cache,
 * the snapshot pages it without repeats or gaps, and the feed without a token is still the engagement order.
 */
export function describeRecommendFeed(mode: RunMode): void {
  describe(`the personalised 推荐 in ${mode} mode`, () => {
    let stack: ProductStack;
    let reader: StackUser;
    let database: Client;
    let others: StackUser;
    let image: string;
    const own: number[] = [];
    const byCategory = new Map<number, number[]>();

    const ok = async <T>(method: string, path: string, token?: string, body?: unknown): Promise<T> => {
      const answer = await stack.call<T>(method, path, body, token);
      expect([method, path, answer.status, answer.body.message]).toEqual([method, path, 200, expect.any(String)]);
      return answer.body.data;
    };
    const feed = (query = 'limit=20') => ok<FeedPage>('GET', `/api/posts?${query}`, reader.token);
    const anonymousFeed = (query = 'limit=20') => ok<FeedPage>('GET', `/api/posts?${query}`);
    const like = (id: number) => ok('POST', '/api/likes', reader.token, { target_type: 1, target_id: id });
    const publish = async (who: StackUser, category: number, title: string) =>
      (await ok<{ id: number }>('POST', '/api/posts', who.token, { title, content: `<p>${title}</p>`, category_id: category, type: 1, images: [image], tags: [] })).id;
    const inCategory = (page: FeedPage, category: number) => page.posts.filter((post) => post.category_id === category).length;

    beforeAll(async () => {
      stack = await startProductStack(mode, { RATE_LIMIT_PER_MINUTE: '1000000' });
      database = new Client({ connectionString: stack.databaseUrl });
      await database.connect();
      reader = await stack.signUp('偏爱学习的读者');
      // One author a kind of note, so that the authors the reader likes follow their categories.
      const [studious, foodie] = [await stack.signUp('学霸'), await stack.signUp('吃货')];
      others = await stack.signUp('杂家');
      const key = `images/recommend-e2e/${randomUUID()}.png`;
      await stack.storage.put(key, await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 200, g: 120, b: 90 } } }).png().toBuffer(), 'image/png');
      image = `/api/files/${key}`;
      const plan: [StackUser, number, number][] = [[studious, STUDY, 30], [foodie, FOOD, 20], ...OTHERS.map((category): [StackUser, number, number] => [others, category, 3])];
      for (const [author, category, count] of plan) {
        const ids: number[] = [];
        for (let n = 0; n < count; n++) ids.push(await publish(author, category, `分类${category}的笔记${n}`));
        byCategory.set(category, ids);
      }
      for (let n = 0; n < 3; n++) own.push(await publish(reader, STUDY, `我自己的学习笔记${n}`));
      for (const id of byCategory.get(STUDY)!.slice(0, 5)) await like(id);
    }, 300_000);

    afterAll(async () => {
      await database?.end();
      await stack?.stop();
    });

    it('shows a student who likes only 学习 mostly 学习, some other categories, and never their own notes', async () => {
      const page = await feed();
      expect(page.posts).toHaveLength(20);
      expect(inCategory(page, STUDY)).toBeGreaterThanOrEqual(12);
      expect(page.posts.length - inCategory(page, STUDY)).toBeGreaterThanOrEqual(3);
      expect(page.posts.map((post) => post.id).filter((id) => own.includes(id))).toEqual([]);
      expect(page.pagination.total).toBe(68);
    });

    it('pages the scroll with the first page\'s snapshot, without repeats or gaps, while likes and notes change the order', async () => {
      const first = await feed('limit=7');
      const snapshot = `&snapshot=${encodeURIComponent(first.pagination.snapshot)}`;
      const seen = first.posts.map((post) => post.id);
      await like(byCategory.get(OTHERS[0])![0]);
      await publish(others, STUDY, '翻页时新发的');
      for (let page = 2; page <= first.pagination.pages + 1; page++) seen.push(...(await feed(`limit=7&page=${page}${snapshot}`)).posts.map((post) => post.id));
      const everyNote = [...byCategory.values()].flat();
      expect(seen).toHaveLength(new Set(seen).size);
      expect([...seen].sort((a, b) => a - b)).toEqual([...everyNote].sort((a, b) => a - b));
    });

    it('moves the student\'s next first page to 美食 after a burst of likes there', async () => {
      // Notes already liked are not recommended again: twelve of the twenty 美食 notes are left to show.
      for (const id of byCategory.get(FOOD)!.slice(0, 8)) await like(id);
      await waitFor('a first page mostly of 美食', async () => inCategory(await feed(), FOOD) >= 11, 60_000, 500);
      const page = await feed();
      expect(page.posts.length - inCategory(page, FOOD)).toBeGreaterThanOrEqual(3);
      expect(page.posts.map((post) => post.id).filter((id) => own.includes(id))).toEqual([]);
    });

    it('leaves the feed without a token as it was: the engagement order of every note, the reader\'s own included', async () => {
      const engagement = async () =>
        (await database.query<{ id: string }>(`SELECT "id" FROM "content"."posts" WHERE NOT "is_draft" ORDER BY "hot_score" DESC, "id" DESC LIMIT 20`)).rows.map((row) => Number(row.id));
      await waitFor('the anonymous 推荐 to show the engagement order', async () => JSON.stringify((await anonymousFeed()).posts.map((post) => post.id)) === JSON.stringify(await engagement()), 60_000, 200);
      const anonymous = await anonymousFeed('limit=20&category=recommend');
      expect(anonymous.posts.map((post) => post.id)).toEqual(await engagement());
      expect(anonymous.pagination.total).toBe(72);
      expect((await anonymousFeed('limit=100')).posts.map((post) => post.id)).toEqual(expect.arrayContaining(own));
    });
  });
}
