import { once } from 'node:events';
import { join } from 'node:path';
import { type EventEnvelope, postAnnounced, postCollected, postDeleted, postLiked, postPublished, postUncollected, postUnliked } from '@shiliu/contracts';
import { spawnTs } from '@shiliu/platform/testing';
import { UserStatsRepository } from '../src';
import { postSnapshot, SocialTestApp, type TestUser } from './social-test-app';

/** A small deterministic generator, so that a failing run can be repeated exactly. */
function random(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state % n;
  };
}

interface Note {
  id: number;
  author: TestUser;
  published: boolean;
  deleted: boolean;
  likes: Set<number>;
  collections: Set<number>;
}

type Step = { kind: 'event'; topic: 'post' | 'reaction'; envelope: EventEnvelope } | { kind: 'follow' | 'unfollow'; who: TestUser; whom: TestUser };

/**
 * 1,000 mixed follows, unfollows, publications, deletions, likes and collections. Content's events are delivered
 * twice each, in runs of up to 30, the two topics interleaved in a random order (each topic in its own order, as a
 * partition keeps it);
 * follows and unfollows are each asked twice. Afterwards every user's stats are what the history says, the
 * reconcile's recount agrees, and the reconcile command reports no drift; one planted drift it reports and fixes.
 */
describe('counters', () => {
  let app: SocialTestApp;

  beforeAll(async () => {
    app = await SocialTestApp.start();
  });

  afterAll(async () => {
    await app?.close();
  });

  const deliverRun = (envelopes: EventEnvelope[]) => app.bus.deliverAll(envelopes.map((envelope) => ({ envelope, delivery: {} })));

  async function reconcileCommand(): Promise<string> {
    const child = spawnTs(join(__dirname, '../src/cli/reconcile.main.ts'), [app.schema], {});
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
    return child.output();
  }

  it('match the recount after 1,000 events delivered twice with the topics interleaved out of order', async () => {
    const next = random(11);
    const users: TestUser[] = [];
    for (let i = 0; i < 12; i++) users.push(await app.user());
    const notes: Note[] = [];
    const follows = new Set<string>();
    const steps: Step[] = [];
    let clock = Date.UTC(2026, 10, 1);
    const event = (topic: 'post' | 'reaction', type: string, payload: unknown): void => {
      steps.push({ kind: 'event', topic, envelope: app.envelope(type, payload, new Date((clock += 7))) });
    };

    while (steps.length < 1000) {
      const roll = next(100);
      const user = users[next(users.length)];
      const live = notes.filter((note) => note.published && !note.deleted);
      if (roll < 10 || notes.length < 3) {
        const note: Note = { id: 0, author: user, published: next(4) !== 0, deleted: false, likes: new Set(), collections: new Set() };
        const snapshot = postSnapshot(user);
        note.id = snapshot.id;
        notes.push(note);
        // A draft is nothing but a row in content until it is published; it causes no event.
        if (note.published) event('post', postPublished.type, { post: snapshot });
      } else if (roll < 14) {
        const note = notes[next(notes.length)];
        if (note.deleted) continue;
        note.deleted = true;
        event('post', postDeleted.type, { id: note.id, author_id: note.author.id, was_draft: !note.published, like_count: note.likes.size, collect_count: note.collections.size, comment_count: 0, images: [], video_url: null, cover_url: null });
      } else if (roll < 60 && live.length > 0) {
        const note = live[next(live.length)];
        const liked = note.likes.has(user.id);
        if (liked) note.likes.delete(user.id);
        else note.likes.add(user.id);
        event('reaction', liked ? postUnliked.type : postLiked.type, { post_id: note.id, post_author_id: note.author.id, user_id: user.id, count: note.likes.size });
      } else if (roll < 80 && live.length > 0) {
        const note = live[next(live.length)];
        const collected = note.collections.has(user.id);
        if (collected) note.collections.delete(user.id);
        else note.collections.add(user.id);
        event('reaction', collected ? postUncollected.type : postCollected.type, { post_id: note.id, post_author_id: note.author.id, user_id: user.id, count: note.collections.size });
      } else {
        const whom = users[next(users.length)];
        if (whom === user) continue;
        const edge = `${user.id}>${whom.id}`;
        const following = follows.has(edge);
        if (following) follows.delete(edge);
        else follows.add(edge);
        steps.push({ kind: following ? 'unfollow' : 'follow', who: user, whom });
      }
    }

    // Each topic keeps its own order; between topics any order goes, and every event comes twice.
    const queues = { post: steps.filter((step) => step.kind === 'event' && step.topic === 'post'), reaction: steps.filter((step) => step.kind === 'event' && step.topic === 'reaction'), follow: steps.filter((step) => step.kind !== 'event') };
    const names = ['post', 'reaction', 'follow'] as const;
    let redeliveries: EventEnvelope[] = [];
    while (names.some((name) => queues[name].length > 0)) {
      const waiting = names.filter((name) => queues[name].length > 0);
      // Favour one topic at a time in runs, so that one races far ahead of the other.
      const name = waiting[next(waiting.length)];
      // A topic's run comes as one delivery, handled in one transaction, as the relay and Kafka hand them over.
      const run: EventEnvelope[] = [];
      for (let length = 1 + next(30); length > 0 && queues[name].length > 0; length--) {
        const step = queues[name].shift();
        if (!step) break;
        if (step.kind === 'event') {
          run.push(step.envelope);
          redeliveries.push(step.envelope);
        } else {
          for (let twice = 0; twice < 2; twice++) {
            const answer = await app.call(step.kind === 'follow' ? 'POST' : 'DELETE', `/api/users/${step.whom.userId}/follow`, { token: step.who.token });
            expect(answer.status).toBe(200);
          }
        }
      }
      await deliverRun(run);
      if (next(3) === 0) {
        await deliverRun(redeliveries);
        redeliveries = [];
      }
    }
    await deliverRun(redeliveries);

    for (const user of users) {
      const mine = notes.filter((note) => note.author === user && note.published && !note.deleted);
      const likes = mine.reduce((sum, note) => sum + note.likes.size, 0);
      const collections = mine.reduce((sum, note) => sum + note.collections.size, 0);
      const stats = (await app.call('GET', `/api/users/${user.userId}/stats`)).body.data;
      expect([user.userId, stats]).toEqual([
        user.userId,
        {
          follow_count: [...follows].filter((edge) => edge.startsWith(`${user.id}>`)).length,
          fans_count: [...follows].filter((edge) => edge.endsWith(`>${user.id}`)).length,
          post_count: mine.length,
          like_count: likes,
          collect_count: collections,
          likes_and_collects: likes + collections,
        },
      ]);
    }
    expect(notes.some((note) => note.deleted && note.published && note.likes.size > 0)).toBe(true);
    expect(await new UserStatsRepository().drift(app.service.dataSource.manager)).toEqual([]);
    expect(await reconcileCommand()).toContain(`${app.schema}: 0 user(s) drifted`);
  });

  it('starts a backfilled note from its announced counts, never over a newer like', async () => {
    const author = await app.user();
    const post = postSnapshot(author);
    const announcedAt = new Date();
    await app.deliver(postLiked.type, { post_id: post.id, post_author_id: author.id, user_id: 1, count: 6 }, new Date(announcedAt.getTime() + 1000));
    await app.deliver(postAnnounced.type, { post, like_count: 5, collect_count: 2 }, announcedAt);
    expect((await app.call('GET', `/api/users/${author.userId}/stats`)).body.data).toMatchObject({ post_count: 1, like_count: 6, collect_count: 2, likes_and_collects: 8 });
  });

  it('reconcile reports a drift it finds and fixes it', async () => {
    const author = await app.user();
    const post = postSnapshot(author);
    await app.deliver(postPublished.type, { post });
    await app.deliver(postLiked.type, { post_id: post.id, post_author_id: author.id, user_id: 1, count: 3 });
    await app.query(`UPDATE "user_stats" SET "like_count" = 8, "fans_count" = 2 WHERE "user_id" = $1`, [author.id]);

    const output = await reconcileCommand();
    expect(output).toContain(`user ${author.id}: fans_count 2 → 0, like_count 8 → 3`);
    expect(output).toContain(`${app.schema}: 1 user(s) drifted, fixed`);
    expect((await app.call('GET', `/api/users/${author.userId}/stats`)).body.data).toMatchObject({ like_count: 3, fans_count: 0, post_count: 1 });
    expect(await reconcileCommand()).toContain(`${app.schema}: 0 user(s) drifted`);
  });
});
