import { mediaImageProcessed } from '@shiliu/contracts';
import { eventRetries } from '@shiliu/platform';
import { waitFor } from '@shiliu/platform/testing';
import { DataSource, type EntityManager } from 'typeorm';
import { CommentRepository } from '../src/comments/comment.repository';
import { CommentService } from '../src/comments/comment.service';
import { PostRepository } from '../src/posts/post.repository';
import { ReactionService } from '../src/reactions/reaction.service';
import { ContentTestApp, noteForm, type PostData, type TestUser } from './content-test-app';

/** Races between writers: counts stay exact and no two writes deadlock. */
describe('concurrent writes', () => {
  let app: ContentTestApp;
  let author: TestUser;

  beforeAll(async () => {
    app = await ContentTestApp.start();
    author = await app.user();
  });

  afterAll(async () => {
    await app?.close();
  });

  /**
   * Runs `hold` in a transaction left open, sends `call`, waits until PostgreSQL has it waiting for that
   * transaction, then commits: the call is certain to have met the held rows.
   */
  async function whileHeld<T>(waiting: string, hold: (manager: EntityManager) => Promise<unknown>, call: () => Promise<T>): Promise<T> {
    const gate = app.service.app.get(DataSource).createQueryRunner();
    await gate.connect();
    try {
      await gate.startTransaction();
      await hold(gate.manager);
      const sent = call();
      const [{ pid }] = (await gate.query(`SELECT pg_backend_pid() AS "pid"`)) as { pid: number }[];
      await waitFor(waiting, async () => {
        const [blocked] = await app.query<{ n: number }>(`SELECT count(*)::int AS "n" FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids("pid"))`, [pid]);
        return blocked.n === 1;
      });
      await gate.commitTransaction();
      return await sent;
    } finally {
      if (gate.isTransactionActive) await gate.rollbackTransaction();
      await gate.release();
    }
  }

  it('keeps a tag’s use_count exact when many notes take it at once', async () => {
    const notes = await Promise.all(Array.from({ length: 16 }, async () => app.call<PostData>('POST', '/api/posts', { token: author.token, body: await noteForm(app, { tags: ['并发'] }) })));
    expect(notes.map((note) => note.status)).toEqual(notes.map(() => 200));
    const [tag] = await app.query<{ use_count: number }>(`SELECT "use_count" FROM "tags" WHERE "name" = '并发'`);
    expect(tag.use_count).toBe(16);
    await Promise.all(notes.slice(0, 10).map((note) => app.call('DELETE', `/api/posts/${note.body.data.id}`, { token: author.token })));
    const [after] = await app.query<{ use_count: number }>(`SELECT "use_count" FROM "tags" WHERE "name" = '并发'`);
    expect(after.use_count).toBe(6);
  });

  // Found by the soak test: a flush of counted views and media's details of an image many notes share each changed
  // the same notes, in orders of their own, until PostgreSQL broke the cycle with "deadlock detected". Here a third
  // transaction holds the middle note, so that both writers have taken their first notes when it lets go.
  it('adds a batch of views while an image shared by many notes gets its details, without a deadlock', async () => {
    const shared = await app.image(1200, 900);
    const notes: number[] = [];
    for (let i = 0; i < 9; i++) notes.push((await app.call<PostData>('POST', '/api/posts', { token: author.token, body: await noteForm(app, { images: [shared] }) })).body.data.id);
    // Enough other notes that PostgreSQL looks the batch's notes up one by one, in the batch's order, as in production.
    await app.query(`INSERT INTO "posts" ("author_id", "title", "content", "content_text", "category_id") SELECT "author_id", "title", "content", "content_text", "category_id" FROM "posts", generate_series(1, 2000) WHERE "posts"."id" = $1`, [notes[0]]);
    await app.query(`ANALYZE "posts"`);
    const retried = async () => (await eventRetries.get()).values.filter((value) => value.labels.type === mediaImageProcessed.type).reduce((sum, value) => sum + value.value, 0);
    const retriedBefore = await retried();
    const gate = app.service.app.get(DataSource).createQueryRunner();
    await gate.connect();
    await gate.startTransaction();
    await gate.query(`SELECT 1 FROM "posts" WHERE "id" = $1 FOR UPDATE`, [notes[4]]);
    const writers = Promise.allSettled([
      app.deliver(mediaImageProcessed.type, { owner_id: author.id, url: shared, width: 1200, height: 901, blurhash: 'LEHV6nWB2yk8pyo0adR*.7kCMdnj', thumbnail_url: `${shared}.thumb.webp` }),
      app.service.app.get(PostRepository).addViews(new Map([...notes].reverse().map((id) => [id, 1]))),
    ]);
    await waitFor('both writers to wait for the middle note', async () => {
      const [waiting] = await app.query<{ n: number }>(`SELECT count(*)::int AS "n" FROM pg_stat_activity WHERE "wait_event_type" = 'Lock' AND "query" ILIKE '%"posts"%' AND "datname" = current_database()`);
      return waiting.n >= 2;
    });
    await gate.commitTransaction();
    await gate.release();
    // A deadlock's victim fails: the view flush with an error, the event's handler with a retry.
    expect((await writers).map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled']);
    expect(await retried()).toBe(retriedBefore);
    const rows = await app.query<{ view_count: number; height: number }>(`SELECT "view_count", ("images"->0->>'height')::int AS "height" FROM "posts" WHERE "id" = ANY($1)`, [notes]);
    expect(rows).toEqual(notes.map(() => ({ view_count: 1, height: 901 })));
  });

  // Found from outside: of 29 replies sent while their parent was deleted, some met a foreign key violation and
  // others were answered from the row the deletion had just taken, each a 500. Here the deletion holds the note's
  // and the comment's rows, as its own transaction does, until several replies wait for them.
  it.each([
    ['a comment', false],
    ['a reply', true],
  ] as const)('answers not found to replies sent while %s they answer is deleted, and keeps the counts exact', async (_name, nested) => {
    const fan = await app.user();
    const note = (await app.call<PostData>('POST', '/api/posts', { token: author.token, body: await noteForm(app) })).body.data;
    const top = (await app.call<{ id: number }>('POST', '/api/comments', { token: author.token, body: { post_id: note.id, content: '楼主的评论' } })).body.data;
    const reply = (await app.call<{ id: number }>('POST', '/api/comments', { token: fan.token, body: { post_id: note.id, parent_id: top.id, content: '第一条回复' } })).body.data;
    const doomed = nested ? reply.id : top.id;
    const gate = app.service.app.get(DataSource).createQueryRunner();
    // Its own connection to watch the waiting replies from: they hold every other one in the pool.
    const probe = app.service.app.get(DataSource).createQueryRunner();
    await gate.connect();
    await probe.connect();
    try {
      await gate.startTransaction();
      await app.service.app.get(PostRepository).lock(gate.manager, note.id);
      const comment = (await app.service.app.get(CommentRepository).lock(gate.manager, doomed))!;
      const replies = Promise.all(
        Array.from({ length: 29 }, (_, i) => app.call('POST', '/api/comments', { token: fan.token, body: { post_id: note.id, parent_id: doomed, content: `回复${i}` } })),
      );
      await waitFor('replies to wait for the deletion', async () => {
        const [waiting] = (await probe.query(
          `SELECT count(*)::int AS "n" FROM pg_stat_activity WHERE "wait_event_type" = 'Lock' AND "datname" = current_database() AND ("query" ILIKE '%"posts"%' OR "query" ILIKE '%"comments"%')`,
        )) as { n: number }[];
        return waiting.n >= 5;
      });
      await app.service.app.get(CommentService).removeWithin(gate.manager, comment);
      await gate.commitTransaction();
      expect((await replies).map((answer) => answer.status)).toEqual(Array.from({ length: 29 }, () => 404));
    } finally {
      if (gate.isTransactionActive) await gate.rollbackTransaction();
      await gate.release();
      await probe.release();
    }
    const [counts] = await app.query<{ comment_count: number; comments: number; reply_count: number | null; replies: number }>(
      `SELECT p."comment_count", (SELECT count(*)::int FROM "comments" WHERE "post_id" = p."id") AS "comments",
         (SELECT "reply_count" FROM "comments" WHERE "id" = $2) AS "reply_count", (SELECT count(*)::int FROM "comments" WHERE "parent_id" = $2) AS "replies"
       FROM "posts" p WHERE p."id" = $1`,
      [note.id, top.id],
    );
    expect(counts).toEqual(nested ? { comment_count: 1, comments: 1, reply_count: 0, replies: 0 } : { comment_count: 0, comments: 0, reply_count: null, replies: 0 });
  });

  it('deletes a note and one of its comments at the same moment without a deadlock', async () => {
    for (let round = 0; round < 10; round++) {
      const note = (await app.call<PostData>('POST', '/api/posts', { token: author.token, body: await noteForm(app) })).body.data;
      const comment = (await app.call<{ id: number }>('POST', '/api/comments', { token: author.token, body: { post_id: note.id, content: '马上删除' } })).body.data;
      const [noteGone, commentGone] = await Promise.all([
        app.call('DELETE', `/api/posts/${note.id}`, { token: author.token }),
        app.call('DELETE', `/api/comments/${comment.id}`, { token: author.token }),
      ]);
      expect(noteGone.status).toBe(200);
      expect([200, 404]).toContain(commentGone.status);
    }
  });

  it('does not hold the note’s row while an edit looks up its new images in object storage', async () => {
    const note = (await app.call<PostData>('POST', '/api/posts', { token: author.token, body: await noteForm(app) })).body.data;
    const newImage = await app.image();
    const stat = app.storage.stat.bind(app.storage);
    let reached!: () => void;
    const storageReached = new Promise<void>((resolve) => (reached = resolve));
    let release!: () => void;
    const storageReleased = new Promise<void>((resolve) => (release = resolve));
    // Object storage that is slow just now: it answers only once the test lets it.
    app.storage.stat = async (key) => {
      reached();
      await storageReleased;
      return stat(key);
    };
    try {
      const editing = app.call('PUT', `/api/posts/${note.id}`, { token: author.token, body: { images: [newImage] } });
      await storageReached;
      const liked = await app.call<{ likeCount: number }>('POST', '/api/likes', { token: author.token, body: { target_type: 1, target_id: note.id } });
      expect(liked.status).toBe(200);
      release();
      expect((await editing).status).toBe(200);
    } finally {
      app.storage.stat = stat;
    }
  });

  // A double tap: the unlike reaches PostgreSQL while the same student's like still holds the note, and must take
  // back that like once it commits, not answer "not liked" over a like that stays.
  it.each([
    ['a note’s like', 'note like', (id: number) => ({ path: '/api/likes', body: { target_type: 1, target_id: id } })],
    ['a collection', 'collection', (id: number) => ({ path: `/api/posts/${id}/collect`, body: undefined })],
  ] as const)('takes back %s sent while the same student’s is still committing', async (_name, kind, route) => {
    const fan = await app.user();
    const note = (await app.call<PostData>('POST', '/api/posts', { token: author.token, body: await noteForm(app) })).body.data;
    const { path, body } = route(note.id);
    const reactions = app.service.app.get(ReactionService);
    const answer = await whileHeld(
      'the take-back to wait for the note',
      (manager) => (kind === 'note like' ? reactions.likePostWithin(manager, String(fan.id), note.id) : reactions.collectWithin(manager, String(fan.id), note.id)),
      () => app.call<{ liked?: boolean; collected?: boolean; likeCount?: number; collectCount?: number }>('DELETE', path, { token: fan.token, body }),
    );
    expect(answer.status).toBe(200);
    const [row] = await app.query<{ like_count: number; collect_count: number; likes: number; collections: number }>(
      `SELECT "like_count", "collect_count", (SELECT count(*)::int FROM "likes" WHERE "target_type" = 1 AND "target_id" = $1) AS "likes",
         (SELECT count(*)::int FROM "collections" WHERE "post_id" = $1) AS "collections" FROM "posts" WHERE "id" = $1`,
      [note.id],
    );
    expect(row).toEqual({ like_count: 0, collect_count: 0, likes: 0, collections: 0 });
    expect(answer.body.data).toEqual(kind === 'note like' ? { liked: false, likeCount: 0 } : { collected: false, collectCount: 0 });
  });

  // A like that reaches PostgreSQL while the note's deletion is committing must not leave a like behind on a note
  // that is gone, nor an event about it.
  it('answers not found for a like whose note is deleted while it waits, and leaves no like behind', async () => {
    const fan = await app.user();
    const note = (await app.call<PostData>('POST', '/api/posts', { token: author.token, body: await noteForm(app) })).body.data;
    const liked = await whileHeld(
      'the like to wait for the deletion',
      (manager) => app.service.app.get(PostRepository).remove(manager, note.id),
      () => app.call('POST', '/api/likes', { token: fan.token, body: { target_type: 1, target_id: note.id } }),
    );
    expect(liked.status).toBe(404);
    expect(await app.query(`SELECT count(*)::int AS "n" FROM "likes" WHERE "target_type" = 1 AND "target_id" = $1`, [note.id])).toEqual([{ n: 0 }]);
    expect(await app.query(`SELECT count(*)::int AS "n" FROM "outbox" WHERE "type" = 'post.liked' AND "key" = $1`, [String(note.id)])).toEqual([{ n: 0 }]);
  });
});
