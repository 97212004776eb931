import { randomUUID } from 'node:crypto';
import { messageForStatus } from '@shiliu/platform';
import { waitFor } from '@shiliu/platform/testing';
import { Client } from 'pg';
import sharp from 'sharp';
import { type ProductStack, type RunMode, type StackUser, startProductStack } from './product-stack';

interface Card {
  id: number;
  user_id: string;
  title: string;
}
interface FeedPage {
  posts: Card[];
  pagination: { page: number; limit: number; total: number; pages: number; snapshot: string };
}
interface Suggested {
  user_id: string;
  nickname: string;
  buttonType: string;
}

/**
 * The 关注 feed through the gateway in one run mode: follows reach content through social's events, notes are read
 * as they stand, so a new note, a deletion or a note back in the drafts shows in the very next read.
 */
export function describeFollowingFeed(mode: RunMode): void {
  describe(`the 关注 feed in ${mode} mode`, () => {
    let stack: ProductStack;
    let reader: StackUser;
    let author: StackUser;
    let image: string;

    beforeAll(async () => {
      stack = await startProductStack(mode, { RATE_LIMIT_PER_MINUTE: '1000000' });
      [reader, author] = [await stack.signUp('读者'), await stack.signUp('作者')];
      const key = `images/following-e2e/${randomUUID()}.png`;
      await stack.storage.put(key, await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 80, g: 160, b: 90 } } }).png().toBuffer(), 'image/png');
      image = `/api/files/${key}`;
    }, 200_000);

    afterAll(async () => {
      await stack?.stop();
    });

    const ok = async <T>(method: string, path: string, token: string, body?: unknown): Promise<T> => {
      const answer = await stack.call<T>(method, path, body, token);
      expect([method, path, answer.status, answer.body.message]).toEqual([method, path, 200, expect.any(String)]);
      return answer.body.data;
    };
    const publish = (who: StackUser, title: string, draft = false) =>
      ok<{ id: number }>('POST', '/api/posts', who.token, { title, content: `<p>${title}</p>`, category_id: 1, type: 1, images: [image], tags: [], is_draft: draft ? 1 : 0 });
    const feed = (who: StackUser, query = '') => ok<FeedPage>('GET', `/api/posts?category=following${query}`, who.token);
    const ids = async (who: StackUser) => (await feed(who)).posts.map((post) => post.id);
    const follow = async (who: StackUser, whom: StackUser, seen: number) => {
      // Social learns of a new account through its event: until then the follow answers 404.
      await waitFor('social to know the followed account', async () => (await stack.call('POST', `/api/users/${whom.userId}/follow`, undefined, who.token)).status === 200, 60_000, 100);
      await waitFor('content to learn the follow', async () => (await ids(who)).includes(seen), 60_000, 100);
    };

    it('answers 401 without a token, for the feed and the suggestions', async () => {
      for (const path of ['/api/posts?category=following', '/api/users/suggestions']) {
        const answer = await stack.call('GET', path);
        expect([path, answer.status, answer.body.message]).toEqual([path, 401, messageForStatus(401)]);
      }
    });

    it('suggests the most followed students to someone who follows no one', async () => {
      const fan = await stack.signUp('粉丝');
      const first = await publish(author, '先来一篇');
      expect(await feed(reader)).toMatchObject({ posts: [], pagination: { total: 0 } });
      await follow(fan, author, first.id);
      const { users } = await ok<{ users: Suggested[] }>('GET', '/api/users/suggestions?limit=5', reader.token);
      expect(users.map((user) => user.user_id)).toContain(author.userId);
      expect(users.map((user) => user.user_id)).not.toContain(reader.userId);
      expect((await stack.call('GET', '/api/users/suggestions?limit=0', undefined, reader.token)).status).toBe(400);
    });

    it('shows a followed author\'s new note first at once, and drops it on unfollow, deletion and back to draft', async () => {
      const before = await publish(author, '关注之前');
      await follow(reader, author, before.id);
      const note = await publish(author, '关注之后的新笔记');
      expect((await ids(reader))[0]).toBe(note.id);

      await ok('DELETE', `/api/users/${author.userId}/follow`, reader.token);
      await waitFor('content to learn the unfollow', async () => !(await ids(reader)).includes(note.id), 60_000, 100);
      expect(await ids(reader)).toEqual([]);
      await follow(reader, author, note.id);

      await ok('DELETE', `/api/posts/${note.id}`, author.token);
      expect(await ids(reader)).not.toContain(note.id);

      const draft = await publish(author, '草稿', true);
      expect(await ids(reader)).not.toContain(draft.id);
      await ok('PUT', `/api/posts/${draft.id}`, author.token, { is_draft: 0 });
      expect((await ids(reader))[0]).toBe(draft.id);

      // No call sends a published note back to the drafts yet (the edit form refuses it); a moderation tool would set this.
      const database = new Client({ connectionString: stack.databaseUrl });
      await database.connect();
      await database.query(`UPDATE "content"."posts" SET "is_draft" = true WHERE "id" = $1`, [draft.id]);
      await database.end();
      expect(await ids(reader)).not.toContain(draft.id);
    });

    it('pages a burst of new notes without repeating or skipping, with the first page\'s snapshot', async () => {
      const writer = await stack.signUp('高产作者');
      const older: number[] = [];
      for (let n = 0; n < 12; n++) older.unshift((await publish(writer, `旧笔记 ${n}`)).id);
      const reading = await stack.signUp('翻页读者');
      await follow(reading, writer, older[0]);

      const first = await feed(reading, '&page=1&limit=5');
      expect(first.pagination).toMatchObject({ total: 12, pages: 3 });
      const newer: number[] = [];
      for (let n = 0; n < 7; n++) newer.unshift((await publish(writer, `新笔记 ${n}`)).id);
      const snapshot = `&snapshot=${encodeURIComponent(first.pagination.snapshot)}`;
      const second = await feed(reading, `&page=2&limit=5${snapshot}`);
      const third = await feed(reading, `&page=3&limit=5${snapshot}`);
      expect([...first.posts, ...second.posts, ...third.posts].map((post) => post.id)).toEqual(older);
      expect(third.pagination).toMatchObject({ total: 12, pages: 3 });

      // Without a snapshot a page is a page of the feed as it is now: the burst on top.
      const live = await feed(reading, '&page=1&limit=5');
      expect(live.posts.map((post) => post.id)).toEqual(newer.slice(0, 5));
      expect((await feed(reading, '&page=2&limit=5')).posts.map((post) => post.id)).toEqual([...newer.slice(5), ...older.slice(0, 3)]);
    });

    it('drops the notes of a deleted account', async () => {
      const leaving = await stack.signUp('要走的人');
      const note = await publish(leaving, '最后一篇');
      await follow(reader, leaving, note.id);
      expect(await ok('DELETE', `/api/users/${leaving.userId}`, leaving.token)).toBeDefined();
      await waitFor('content to remove the deleted account\'s notes', async () => !(await ids(reader)).includes(note.id), 60_000, 100);
    });
  });
}
