import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { ReactionRepository } from '../src/reactions/reaction.repository';
import { ContentTestApp, noteForm, type PostData, type TestUser } from './content-test-app';

describe('likes and collections', () => {
  let app: ContentTestApp;
  let author: TestUser;
  let fan: TestUser;
  let postId: number;

  const likeCount = async (id: number) => (await app.query<{ like_count: number }>(`SELECT "like_count" FROM "posts" WHERE "id" = $1`, [id]))[0].like_count;
  const likeRows = async (id: number) => (await app.query<{ n: number }>(`SELECT count(*)::int AS "n" FROM "likes" WHERE "target_type" = 1 AND "target_id" = $1`, [id]))[0].n;

  beforeAll(async () => {
    app = await ContentTestApp.start();
    author = await app.user();
    fan = await app.user();
    postId = (await app.call<PostData>('POST', '/api/posts', { token: author.token, body: await noteForm(app) })).body.data.id;
  });

  afterAll(async () => {
    await app?.close();
  });

  describe('successful', () => {
    it('likes a note once however often it is asked, and shows it to the liker', async () => {
      const first = await app.call('POST', '/api/likes', { token: fan.token, body: { target_type: 1, target_id: postId } });
      expect(first.body).toEqual({ code: 200, message: '点赞成功', data: { liked: true, likeCount: 1 } });
      const second = await app.call('POST', '/api/likes', { token: fan.token, body: { target_type: 1, target_id: postId } });
      expect(second.body.data).toEqual({ liked: true, likeCount: 1 });
      expect((await app.call<PostData>('GET', `/api/posts/${postId}`, { token: fan.token })).body.data).toMatchObject({ liked: true, like_count: 1, likeCount: 1 });
      expect((await app.call<PostData>('GET', `/api/posts/${postId}`, { token: author.token })).body.data.liked).toBe(false);
      const liked = await app.events('post.liked');
      expect(liked).toHaveLength(1);
      expect(liked[0]).toMatchObject({ topic: 'shiliu.reaction', key: String(postId), payload: { post_id: postId, post_author_id: author.id, user_id: fan.id, count: 1 } });
    });

    it('unlikes, and unliking what was not liked succeeds without change', async () => {
      const answer = await app.call('DELETE', '/api/likes', { token: fan.token, body: { target_type: 1, target_id: postId } });
      expect(answer.body).toEqual({ code: 200, message: '取消点赞成功', data: { liked: false, likeCount: 0 } });
      const again = await app.call('DELETE', '/api/likes', { token: fan.token, body: { target_type: 1, target_id: postId } });
      expect(again.status).toBe(200);
      expect(again.body.data).toEqual({ liked: false, likeCount: 0 });
      expect(await app.events('post.unliked')).toHaveLength(1);
    });

    it('collects and uncollects idempotently', async () => {
      for (let i = 0; i < 2; i++) {
        const answer = await app.call('POST', `/api/posts/${postId}/collect`, { token: fan.token });
        expect(answer.body).toEqual({ code: 200, message: '收藏成功', data: { collected: true, collectCount: 1 } });
      }
      expect((await app.call<PostData>('GET', `/api/posts/${postId}`, { token: fan.token })).body.data).toMatchObject({ collected: true, collect_count: 1 });
      expect(await app.events('post.collected')).toHaveLength(1);
      for (let i = 0; i < 2; i++) {
        const answer = await app.call('DELETE', `/api/posts/${postId}/collect`, { token: fan.token });
        expect(answer.body).toEqual({ code: 200, message: '取消收藏成功', data: { collected: false, collectCount: 0 } });
      }
      expect(await app.events('post.uncollected')).toHaveLength(1);
    });

    it('names who likes and who collects a note when it re-announces it for a backfill', async () => {
      const [writer, reader] = [await app.user(), await app.user()];
      const id = (await app.call<PostData>('POST', '/api/posts', { token: writer.token, body: await noteForm(app, { title: '补录' }) })).body.data.id;
      await app.call('POST', '/api/likes', { token: reader.token, body: { target_type: 1, target_id: id } });
      await app.call('POST', '/api/likes', { token: writer.token, body: { target_type: 1, target_id: id } });
      await app.call('POST', `/api/posts/${id}/collect`, { token: reader.token });
      await app.deliver('backfill.requested', { consumer: 'search', entities: ['post'] });
      const announced = (await app.events('post.announced')).find((event) => (event.payload as { post: { id: number } }).post.id === id);
      expect(announced?.payload).toMatchObject({ like_count: 2, collect_count: 1, liked_by: [writer.id, reader.id].sort((x, y) => x - y), collected_by: [reader.id] });
    });

    it("lists a user's likes and collections, newest action first", async () => {
      const [a, b, c] = await Promise.all([1, 2, 3].map(async (n) => (await app.call<PostData>('POST', '/api/posts', { token: author.token, body: await noteForm(app, { title: `收藏${n}` }) })).body.data.id));
      for (const id of [b, a, c]) {
        await app.call('POST', '/api/likes', { token: fan.token, body: { target_type: 1, target_id: id } });
        await app.call('POST', `/api/posts/${id}/collect`, { token: fan.token });
      }
      const likes = await app.call<{ posts: PostData[]; pagination: { total: number } }>('GET', `/api/users/${fan.userId}/likes`, { token: fan.token });
      expect(likes.body.data.posts.map((post) => post.id)).toEqual([c, a, b]);
      expect(likes.body.data.posts.every((post) => post.liked)).toBe(true);
      expect(likes.body.data.pagination.total).toBe(3);
      const collections = await app.call<{ collections: PostData[]; pagination: { total: number } }>('GET', `/api/users/${fan.userId}/collections?limit=2`);
      expect(collections.body.data.collections.map((post) => post.id)).toEqual([c, a]);
      expect(collections.body.data.pagination).toMatchObject({ total: 3, pages: 2 });
    });

    it('keeps like_count equal to the rows that remain when 50 users like and unlike at once', async () => {
      const target = (await app.call<PostData>('POST', '/api/posts', { token: author.token, body: await noteForm(app, { title: '并发' }) })).body.data.id;
      const users = await Promise.all(Array.from({ length: 50 }, (_, i) => app.user({ id: 5000 + i, user_id: `crowd_${i}` })));
      const like = (user: TestUser) => app.call('POST', '/api/likes', { token: user.token, body: { target_type: 1, target_id: target } });
      const unlike = (user: TestUser) => app.call('DELETE', '/api/likes', { token: user.token, body: { target_type: 1, target_id: target } });
      // Everyone likes (some twice), then a third unlike (some twice) while others like again.
      const answers = await Promise.all(users.flatMap((user, i) => (i % 5 === 0 ? [like(user), like(user)] : [like(user)])));
      expect(answers.every((answer) => answer.status === 200)).toBe(true);
      expect(await likeCount(target)).toBe(50);
      const mixed = await Promise.all(users.flatMap((user, i) => (i % 3 === 0 ? [unlike(user), unlike(user)] : [like(user)])));
      expect(mixed.every((answer) => answer.status === 200)).toBe(true);
      const rows = await likeRows(target);
      expect(rows).toBe(50 - Math.ceil(50 / 3));
      expect(await likeCount(target)).toBe(rows);
      const events = await app.events();
      const net = events.filter((e) => (e.payload as { post_id?: number }).post_id === target).reduce((sum, e) => sum + (e.type === 'post.liked' ? 1 : e.type === 'post.unliked' ? -1 : 0), 0);
      expect(net).toBe(rows);
    });

    it("commits a student's tap without waiting for the disk, and a reaction inside a transaction as the transaction does", async () => {
      const reactions = app.service.app.get(ReactionRepository);
      /** synchronous_commit as the repository's statement leaves it for the commit, read in a transaction rolled back after. */
      const settingAfter = async (asTap: boolean) => {
        const runner = app.service.dataSource.createQueryRunner();
        await runner.startTransaction();
        try {
          // Outside a transaction the repository is handed a plain manager (no query runner): a student's tap.
          const manager = asTap ? ({ query: (sql: string, params: unknown[]) => runner.query(sql, params) } as unknown as EntityManager) : runner.manager;
          const id = randomUUID();
          const payload = { post_id: postId, post_author_id: 0, user_id: fan.id, count: 0 };
          const done = await reactions.react(manager, {
            kind: 'note like',
            userId: String(fan.id),
            targetId: postId,
            on: true,
            checkUser: true,
            event: { id, topic: 'shiliu.reaction', key: String(postId), type: 'post.liked', envelope: { id, type: 'post.liked', payload } },
          });
          expect(done).toMatchObject({ known: true, found: true, published: true });
          return (await runner.query(`SHOW synchronous_commit`))[0].synchronous_commit;
        } finally {
          await runner.rollbackTransaction();
          await runner.release();
        }
      };
      expect(await settingAfter(true)).toBe('off');
      expect(await settingAfter(false)).toBe('on');
    });

    it('likes comments, answering likeCount', async () => {
      const comment = (await app.call<{ id: number }>('POST', '/api/comments', { token: author.token, body: { post_id: postId, content: '评论' } })).body.data;
      const liked = await app.call('POST', '/api/likes', { token: fan.token, body: { target_type: 2, target_id: comment.id } });
      expect(liked.body.data).toEqual({ liked: true, likeCount: 1 });
      expect((await app.call('POST', '/api/likes', { token: fan.token, body: { target_type: 2, target_id: comment.id } })).body.data).toEqual({ liked: true, likeCount: 1 });
      const list = await app.call<{ comments: { id: number; isLiked: boolean; likeCount: number }[] }>('GET', `/api/posts/${postId}/comments`, { token: fan.token });
      expect(list.body.data.comments.find((c) => c.id === comment.id)).toMatchObject({ isLiked: true, likeCount: 1 });
      expect((await app.events('comment.liked'))[0]).toMatchObject({ topic: 'shiliu.reaction', payload: { comment_id: comment.id, post_id: postId, comment_author_id: author.id, user_id: fan.id, count: 1 } });
      expect((await app.call('DELETE', '/api/likes', { token: fan.token, body: { target_type: 2, target_id: comment.id } })).body.data).toEqual({ liked: false, likeCount: 0 });
      expect((await app.call('DELETE', '/api/likes', { token: fan.token, body: { target_type: 2, target_id: comment.id } })).body.data).toEqual({ liked: false, likeCount: 0 });
      expect(await app.events('comment.unliked')).toHaveLength(1);
    });
  });

  describe('failing', () => {
    it('needs a login', async () => {
      expect((await app.call('POST', '/api/likes', { body: { target_type: 1, target_id: postId } })).status).toBe(401);
      expect((await app.call('DELETE', '/api/likes', { body: { target_type: 1, target_id: postId } })).status).toBe(401);
      expect((await app.call('POST', `/api/posts/${postId}/collect`)).status).toBe(401);
      expect((await app.call('DELETE', `/api/posts/${postId}/collect`)).status).toBe(401);
    });

    it.each([
      [{ target_type: 3, target_id: 1 }, 'target_type 必须是 1（笔记）或 2（评论）'],
      [{ target_id: 1 }, 'target_type 必须是 1（笔记）或 2（评论）'],
      [{ target_type: 1, target_id: 0 }, 'target_id 必须是正整数'],
      [{ target_type: 1, target_id: 'abc' }, 'target_id 必须是正整数'],
    ])('refuses %j with 400', async (body, message) => {
      expect((await app.call('POST', '/api/likes', { token: fan.token, body })).body).toEqual({ code: 400, message, data: null });
    });

    it('answers a missing note or comment with 404 and stores nothing', async () => {
      for (const body of [
        { target_type: 1, target_id: 99999 },
        { target_type: 2, target_id: 99999 },
      ]) {
        expect((await app.call('POST', '/api/likes', { token: fan.token, body })).status).toBe(404);
        expect((await app.call('DELETE', '/api/likes', { token: fan.token, body })).status).toBe(404);
      }
      expect((await app.call('POST', '/api/posts/99999/collect', { token: fan.token })).status).toBe(404);
      expect((await app.call('DELETE', '/api/posts/99999/collect', { token: fan.token })).status).toBe(404);
      expect((await app.query<{ n: number }>(`SELECT count(*)::int AS "n" FROM "likes" WHERE "target_id" = 99999`))[0].n).toBe(0);
    });
  });
});
