import { Client } from '@elastic/elasticsearch';
import { postCollected, postLiked, userFollowed } from '@shiliu/contracts';
import { requireEnv } from '@shiliu/platform/testing';
import { PostRepository } from '../src/posts/post.repository';
import { UserRepository } from '../src/users/user.repository';
import { SearchTestApp, type TestUser } from './search-test-app';

interface Found {
  posts: { data: { id: number; liked: boolean; collected: boolean; like_count: number }[] };
  users: { data: { id: number; followed: boolean }[] };
}

/**
 * With Elasticsearch's answers kept (as deployed; PostgreSQL's never are), everyone asking the same question meanwhile
 * shares the cards read for it.
 */
describe('search answers shared while the engine keeps them', () => {
  let app: SearchTestApp;
  let author: TestUser;
  let fan: TestUser;
  let stranger: TestUser;
  let noteId: number;

  beforeAll(async () => {
    app = await SearchTestApp.start('elasticsearch', { SEARCH_REFRESH_ON_WRITE: 'false', SEARCH_CACHE_MS: '1000' });
    author = await app.user({ nickname: '野餐达人' });
    fan = await app.user();
    stranger = await app.user();
    noteId = (await app.publish(author, { title: '周末野餐去哪里' })).id;
    await app.deliver(postLiked.type, { post_id: noteId, post_author_id: author.id, user_id: fan.id, count: 1 });
    await app.deliver(postCollected.type, { post_id: noteId, post_author_id: author.id, user_id: fan.id, count: 1 });
    await app.deliver(userFollowed.type, { follower_id: fan.id, follower_user_id: fan.userId, following_id: author.id, following_user_id: author.userId, follower_follow_count: 1, following_fans_count: 1 });
    // What was written is searchable now rather than at the index's next refresh.
    const client = new Client({ node: requireEnv('ELASTICSEARCH_URL') });
    await client.indices.refresh({ index: `${app.prefix}-*` });
    await client.close();
  });

  afterAll(async () => {
    await app?.close();
  });

  afterEach(() => jest.useRealTimers());

  it("reads the cards once for everyone asking within the window, each viewer still seeing their own like, collection and follow", async () => {
    // The service's clock held still (its timers run as usual): every search below is asked within the window.
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'clearImmediate', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'queueMicrotask', 'hrtime', 'performance'] });
    const posts = jest.spyOn(app.service.app.get(PostRepository), 'byIds');
    const users = jest.spyOn(app.service.app.get(UserRepository), 'byIds');
    const search = async (token?: string) => (await app.call<Found>('GET', `/api/search?type=all&keyword=${encodeURIComponent('野餐')}`, { token })).body.data;
    const [anonymous, liker, other] = await Promise.all([search(), search(fan.token), search(stranger.token)]);
    expect(posts).toHaveBeenCalledTimes(1);
    expect(users).toHaveBeenCalledTimes(1);
    expect(anonymous.posts.data).toEqual([expect.objectContaining({ id: noteId, liked: false, collected: false, like_count: 1 })]);
    expect(liker.posts.data).toEqual([expect.objectContaining({ id: noteId, liked: true, collected: true, like_count: 1 })]);
    expect(other.posts.data).toEqual([expect.objectContaining({ id: noteId, liked: false, collected: false })]);
    expect(liker.users.data).toEqual([expect.objectContaining({ id: author.id, followed: true })]);
    expect(anonymous.users.data).toEqual([expect.objectContaining({ id: author.id, followed: false })]);
    // The shared cards are not the viewer's: a later anonymous answer still shows no like.
    expect((await search()).posts.data[0]).toMatchObject({ liked: false, collected: false });
    expect(posts).toHaveBeenCalledTimes(1);
  });
});
