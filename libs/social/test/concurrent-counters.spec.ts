import { postPublished } from '@shiliu/contracts';
import type { EntityManager } from 'typeorm';
import { UserStatsRepository } from '../src';
import { PostRepository } from '../src/posts/post.repository';
import { postSnapshot, SocialTestApp, type TestUser } from './social-test-app';

/** Two sides that each, on arriving, wait for the other. */
function meeting(): [() => Promise<void>, () => Promise<void>] {
  const sides = [0, 1].map(() => {
    let arrive: () => void = () => undefined;
    const arrived = new Promise<void>((resolve) => (arrive = resolve));
    return { arrive, arrived };
  });
  const side = (mine: number) => async () => {
    sides[mine].arrive();
    await sides[1 - mine].arrived;
  };
  return [side(0), side(1)];
}

/**
 * Two consumer runs (one transaction each, as a Kafka partition's run is) move the same two users' counters in
 * opposite orders, each having moved its first user before the other moves its second: written as they go, each
 * would hold the row the other waits for. Summed and written at commit in id order, both commit, with exact totals.
 */
describe('counters moved by concurrent runs', () => {
  let app: SocialTestApp;
  let stats: UserStatsRepository;

  beforeAll(async () => {
    app = await SocialTestApp.start();
    stats = new UserStatsRepository();
  });

  afterAll(async () => {
    await app?.close();
  });

  const counts = async (users: TestUser[]) => {
    const found = await stats.of(app.service.dataSource.manager, users.map((user) => user.id));
    return users.map((user) => found.get(user.id)!);
  };

  /** Runs `first` and `second` in two transactions at once, in opposite orders, meeting between their two steps. */
  async function crossed(first: (manager: EntityManager, user: TestUser) => Promise<void>, a: TestUser, b: TestUser): Promise<PromiseSettledResult<void>[]> {
    const [left, right] = meeting();
    const run = (one: TestUser, other: TestUser, meet: () => Promise<void>) =>
      app.service.dataSource.transaction(async (manager) => {
        await first(manager, one);
        await meet();
        await first(manager, other);
      });
    return Promise.allSettled([run(a, b, left), run(b, a, right)]);
  }

  it('deadlock when written as they go: the interleaving is the one that needs the deferral', async () => {
    const [a, b] = [await app.user(), await app.user()];
    const results = await crossed(async (manager, user) => {
      await manager.query(`INSERT INTO "user_stats" ("user_id", "like_count") VALUES ($1, 1) ON CONFLICT ("user_id") DO UPDATE SET "like_count" = "user_stats"."like_count" + 1`, [user.id]);
    }, a, b);
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect((results.find((result) => result.status === 'rejected') as PromiseRejectedResult).reason).toMatchObject({ driverError: { code: '40P01' } });
  });

  it('both commit, with exact totals, when the likes of the two users\' notes move their counters through the event handlers\' code', async () => {
    const [a, b] = [await app.user(), await app.user()];
    const notes = new Map<number, number[]>();
    for (const author of [a, b]) {
      const ids: number[] = [];
      for (let i = 0; i < 2; i++) {
        const post = postSnapshot(author);
        await app.deliver(postPublished.type, { post });
        ids.push(post.id);
      }
      notes.set(author.id, ids);
    }
    const posts = app.service.app.get(PostRepository);
    // Each run likes a different note of each author, so only the authors' counters are shared.
    const taken = new Map<number, number>();
    const results = await crossed(async (manager, author) => {
      const turn = taken.get(author.id) ?? 0;
      taken.set(author.id, turn + 1);
      await posts.likes(manager, notes.get(author.id)![turn], author.id, 3, new Date().toISOString());
      stats.move(manager, author.id, { fans_count: 1 });
    }, a, b);

    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled']);
    expect((await counts([a, b])).map((counters) => [counters.post_count, counters.like_count, counters.fans_count])).toEqual([[2, 6, 2], [2, 6, 2]]);
  });

  it('take back the moves of a transaction that rolls back, and of a savepoint rolled back, and keep those before it', async () => {
    const user = await app.user();
    await expect(app.service.dataSource.transaction(async (manager) => {
      stats.move(manager, user.id, { fans_count: 5 });
      throw new Error('refused');
    })).rejects.toThrow('refused');
    await app.service.dataSource.transaction(async (manager) => {
      stats.move(manager, user.id, { fans_count: 1 });
      await expect(manager.transaction(async (inner) => {
        stats.move(inner, user.id, { fans_count: 10 });
        throw new Error('inner refused');
      })).rejects.toThrow('inner refused');
      stats.move(manager, user.id, { follow_count: 2 });
    });
    expect((await counts([user])).map((counters) => [counters.fans_count, counters.follow_count])).toEqual([[1, 2]]);
  });
});
