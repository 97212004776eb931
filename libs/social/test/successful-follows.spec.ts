import { postLiked, postPublished, userDeleted, userFollowed, userUnfollowed, userUpdated } from '@shiliu/contracts';
import { postSnapshot, SocialTestApp, type TestUser } from './social-test-app';

interface State {
  followed: boolean;
  isMutual: boolean;
  buttonType: string;
}

interface ListItem extends State {
  user_id: string;
  isFollowing: boolean;
  followed_at: string;
  [field: string]: unknown;
}

interface Page {
  following?: ListItem[];
  followers?: ListItem[];
  mutualFollows?: ListItem[];
  pagination: { page: number; limit: number; total: number; pages: number };
}

/** Follow, unfollow, the follow button's states, the lists, stats and the hover card, through the HTTP calls. */
describe('follows', () => {
  let app: SocialTestApp;

  beforeAll(async () => {
    app = await SocialTestApp.start();
  });

  afterAll(async () => {
    await app?.close();
  });

  const follow = (who: TestUser, whom: TestUser) => app.call<State>('POST', `/api/users/${whom.userId}/follow`, { token: who.token });
  const unfollow = (who: TestUser, whom: TestUser) => app.call<State>('DELETE', `/api/users/${whom.userId}/follow`, { token: who.token });
  const status = async (who: TestUser, whom: TestUser) => (await app.call<State>('GET', `/api/users/${whom.userId}/follow-status`, { token: who.token })).body.data;
  const stats = async (of: TestUser) => (await app.call<Record<string, number>>('GET', `/api/users/${of.userId}/stats`)).body.data;

  it('walks the follow button: follow → unfollow; they follow me → back → mutual; mutual → back after I unfollow', async () => {
    const me = await app.user();
    const them = await app.user();
    expect(await status(me, them)).toEqual({ followed: false, isMutual: false, buttonType: 'follow' });

    const followed = await follow(me, them);
    expect(followed.status).toBe(200);
    expect(followed.body).toMatchObject({ message: '关注成功', data: { followed: true, isMutual: false, buttonType: 'unfollow' } });
    expect(await status(me, them)).toEqual({ followed: true, isMutual: false, buttonType: 'unfollow' });
    expect((await unfollow(me, them)).body).toMatchObject({ message: '取消关注成功', data: { followed: false, isMutual: false, buttonType: 'follow' } });

    await follow(them, me);
    expect(await status(me, them)).toEqual({ followed: false, isMutual: false, buttonType: 'back' });
    expect((await follow(me, them)).body.data).toEqual({ followed: true, isMutual: true, buttonType: 'mutual' });
    expect(await status(them, me)).toEqual({ followed: true, isMutual: true, buttonType: 'mutual' });

    expect((await unfollow(me, them)).body.data).toEqual({ followed: false, isMutual: false, buttonType: 'back' });
    expect(await status(them, me)).toEqual({ followed: true, isMutual: false, buttonType: 'unfollow' });
  });

  it('follows twice and unfollows twice with one effect and one event each, and moves both counters', async () => {
    const me = await app.user();
    const them = await app.user();
    expect((await follow(me, them)).status).toBe(200);
    expect((await follow(me, them)).body.data).toMatchObject({ followed: true });
    expect(await stats(me)).toMatchObject({ follow_count: 1, fans_count: 0 });
    expect(await stats(them)).toMatchObject({ follow_count: 0, fans_count: 1 });
    expect((await unfollow(me, them)).status).toBe(200);
    expect((await unfollow(me, them)).status).toBe(200);
    expect(await stats(me)).toMatchObject({ follow_count: 0 });
    expect(await stats(them)).toMatchObject({ fans_count: 0 });

    const mine = (await app.events()).filter((event) => [userFollowed.type, userUnfollowed.type].includes(event.type) && (event.payload as { follower_id: number }).follower_id === me.id);
    expect(mine.map((event) => event.type)).toEqual([userFollowed.type, userUnfollowed.type]);
    expect(mine[0]).toMatchObject({
      topic: 'shiliu.follow',
      key: String(them.id),
      payload: { follower_id: me.id, follower_user_id: me.userId, following_id: them.id, following_user_id: them.userId, follower_follow_count: 1, following_fans_count: 1 },
    });
    expect(mine[1].payload).toMatchObject({ follower_follow_count: 0, following_fans_count: 0 });
  });

  it('answers the states of many users in one call, in the order asked, unknown users as not followed', async () => {
    const me = await app.user();
    const [a, b, c] = [await app.user(), await app.user(), await app.user()];
    await follow(me, a);
    await follow(b, me);
    await follow(me, c);
    await follow(c, me);
    const answer = await app.call<{ statuses: (State & { user_id: string })[] }>('GET', `/api/users/follow-status?ids=${a.userId},${b.userId},nobody,${c.userId}`, { token: me.token });
    expect(answer.status).toBe(200);
    expect(answer.body.data.statuses).toEqual([
      { user_id: a.userId, followed: true, isMutual: false, buttonType: 'unfollow' },
      { user_id: b.userId, followed: false, isMutual: false, buttonType: 'back' },
      { user_id: 'nobody', followed: false, isMutual: false, buttonType: 'follow' },
      { user_id: c.userId, followed: true, isMutual: true, buttonType: 'mutual' },
    ]);
    const visitor = await app.call<{ statuses: State[] }>('GET', `/api/users/follow-status?ids=${a.userId}`);
    expect(visitor.body.data.statuses).toEqual([{ user_id: a.userId, followed: false, isMutual: false, buttonType: 'follow' }]);
    const hundred = Array.from({ length: 100 }, (_, i) => `u${i}`).join(',');
    expect((await app.call('GET', `/api/users/follow-status?ids=${hundred}`)).status).toBe(200);
  });

  it('lists following, followers and mutual follows newest first, each item relative to the viewer', async () => {
    const owner = await app.user();
    const viewer = await app.user();
    const [x, y, z] = [await app.user({ nickname: '小X' }), await app.user(), await app.user()];
    await follow(owner, x);
    await follow(owner, y);
    await follow(owner, z);
    await follow(y, owner);
    await follow(z, owner);
    await follow(viewer, x);
    await follow(y, viewer);

    const following = await app.call<Page>('GET', `/api/users/${owner.userId}/following`, { token: viewer.token });
    expect(following.status).toBe(200);
    expect(following.body.data.following?.map((item) => item.user_id)).toEqual([z.userId, y.userId, x.userId]);
    expect(following.body.data.pagination).toEqual({ page: 1, limit: 20, total: 3, pages: 1 });
    const itemX = following.body.data.following?.[2];
    expect(itemX).toEqual({
      id: x.id,
      user_id: x.userId,
      nickname: '小X',
      avatar: expect.any(String),
      bio: expect.any(String),
      follow_count: 0,
      fans_count: 2,
      post_count: 0,
      followed_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      isFollowing: true,
      isMutual: false,
      buttonType: 'unfollow',
    });
    expect(following.body.data.following?.[1]).toMatchObject({ user_id: y.userId, isFollowing: false, isMutual: false, buttonType: 'back' });

    const followers = await app.call<Page>('GET', `/api/users/${owner.userId}/followers?page=1&limit=1`, { token: viewer.token });
    expect(followers.body.data.followers?.map((item) => item.user_id)).toEqual([z.userId]);
    expect(followers.body.data.pagination).toEqual({ page: 1, limit: 1, total: 2, pages: 2 });
    const second = await app.call<Page>('GET', `/api/users/${owner.userId}/followers?page=2&limit=1`);
    expect(second.body.data.followers?.map((item) => item.user_id)).toEqual([y.userId]);

    const mutual = await app.call<Page>('GET', `/api/users/${owner.userId}/mutual-follows`, { token: owner.token });
    expect(mutual.body.data.mutualFollows?.map((item) => item.user_id)).toEqual([z.userId, y.userId]);
    expect(mutual.body.data.mutualFollows?.[0]).toMatchObject({ isFollowing: true, isMutual: true, buttonType: 'mutual' });
  });

  it('shows stats and the hover card from its own read model: profile, counts, button, the three newest covers', async () => {
    const author = await app.user({ nickname: '作者', bio: '爱拍照', verified: 2 });
    const viewer = await app.user();
    await follow(author, viewer);
    const covers: string[] = [];
    for (let i = 0; i < 4; i++) {
      const post = postSnapshot(author, { created_at: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(), cover_url: i === 3 ? '/api/files/covers/video.jpg' : null });
      await app.deliver(postPublished.type, { post });
      await app.deliver(postLiked.type, { post_id: post.id, post_author_id: author.id, user_id: viewer.id, count: i + 1 });
      covers.unshift(post.cover_url ?? post.images[0]);
    }
    await app.deliver(userUpdated.type, { user: { id: author.id, user_id: author.userId, nickname: '新作者', avatar: '/api/files/a.png', bio: '爱拍照', location: '', verified: 2 } });

    expect(await stats(author)).toEqual({ follow_count: 1, fans_count: 0, post_count: 4, like_count: 10, collect_count: 0, likes_and_collects: 10 });
    const card = await app.call('GET', `/api/users/${author.userId}/card`, { token: viewer.token });
    expect(card.status).toBe(200);
    expect(card.body.data).toEqual({
      id: author.id,
      user_id: author.userId,
      avatar: '/api/files/a.png',
      nickname: '新作者',
      verified: 2,
      bio: '爱拍照',
      followCount: 1,
      fansCount: 0,
      likeAndCollectCount: 10,
      followed: false,
      isFollowing: false,
      isMutual: false,
      buttonType: 'back',
      images: covers.slice(0, 3),
    });
    expect((await app.call('GET', `/api/users/${author.userId}/card`)).body.data).toMatchObject({ buttonType: 'follow', isFollowing: false });
  });

  it("takes a deleted user's follows out in both directions, lowers the others' counters and emits nothing", async () => {
    const leaving = await app.user();
    const fan = await app.user();
    const idol = await app.user();
    await follow(fan, leaving);
    await follow(leaving, idol);
    await follow(leaving, fan);
    const before = (await app.events()).length;

    await app.deliver(userDeleted.type, { id: leaving.id, user_id: leaving.userId });

    expect(await stats(fan)).toMatchObject({ follow_count: 0, fans_count: 0 });
    expect(await stats(idol)).toMatchObject({ fans_count: 0 });
    expect(await app.query(`SELECT 1 FROM "follows" WHERE $1 IN ("follower_id", "following_id")`, [leaving.id])).toEqual([]);
    expect((await app.call('GET', `/api/users/${leaving.userId}/stats`)).status).toBe(404);
    expect((await app.call<Page>('GET', `/api/users/${fan.userId}/following`)).body.data.following).toEqual([]);
    expect((await app.events()).length).toBe(before);
  });

  it('re-announces every follow with both counters when a read model asks for a backfill', async () => {
    const [fan, idol] = [await app.user(), await app.user()];
    expect((await follow(fan, idol)).status).toBe(200);
    await app.deliver('backfill.requested', { consumer: 'search', entities: ['follow'] });
    const announced = (await app.events('follow.announced')).filter((event) => (event.payload as { follower_id: number }).follower_id === fan.id);
    expect(announced).toEqual([
      expect.objectContaining({
        topic: 'shiliu.follow',
        key: String(idol.id),
        payload: { follower_id: fan.id, follower_user_id: fan.userId, following_id: idol.id, following_user_id: idol.userId, follower_follow_count: 1, following_fans_count: 1 },
      }),
    ]);
  });
});
