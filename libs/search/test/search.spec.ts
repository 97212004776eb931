import {
  followAnnounced,
  postAnnounced,
  postCollected,
  postUncollected,
  postDeleted,
  postDraftSaved,
  postLiked,
  postUnliked,
  postUpdated,
  userDeleted,
  userFollowed,
  userUnfollowed,
  userUpdated,
} from '@shiliu/contracts';
import { documentedAnswerProblems } from '@shiliu/platform/testing';
import { type EngineName, postSnapshot, SearchTestApp, type TestUser } from './search-test-app';

interface Card {
  id: number;
  title: string;
  images: string[];
  title_highlight: string;
  type: number;
  like_count: number;
  comment_count: number;
  liked: boolean;
  collected: boolean;
  nickname: string;
  tags: { name: string }[];
}

interface UserCard {
  user_id: string;
  nickname: string;
  followed: boolean;
  isFollowing: boolean;
  post_count: number;
  isMutual: boolean;
  buttonType: string;
}

interface Result {
  posts: { data: Card[]; pagination: { page: number; limit: number; total: number; pages: number } };
  users: { data: UserCard[]; pagination: { page: number; limit: number; total: number; pages: number } };
  tagStats: { id: string; label: string; count: number }[];
}

const minutesAgo = (minutes: number): string => new Date(Date.now() - minutes * 60_000).toISOString();

/** One set of cases, run against Elasticsearch and against the PostgreSQL variant: both must answer alike. */
describe.each<EngineName>(['elasticsearch', 'postgres'])('search on %s', (engine) => {
  let app: SearchTestApp;
  let author: TestUser;
  let viewer: TestUser;

  beforeAll(async () => {
    app = await SearchTestApp.start(engine);
    author = await app.user({ nickname: '野营达人' });
    viewer = await app.user({ nickname: '路过的同学' });
  });

  afterAll(async () => {
    await app?.close();
  });

  async function search(query: string, token?: string): Promise<Result> {
    const answer = await app.call<Result>('GET', `/api/search?${query}`, { token });
    expect(answer.status).toBe(200);
    return answer.body.data;
  }

  const titles = (result: Result): string[] => result.posts.data.map((card) => card.title);

  it('finds a two-character Chinese word in titles and text, titles first, tags above both, the match highlighted', async () => {
    await app.publish(author, { title: '校园里的秋天', content_text: '周末去草坪野餐，阳光正好', created_at: minutesAgo(3) });
    await app.publish(author, { title: '野餐<b>攻略</b>', content_text: '准备些什么', created_at: minutesAgo(2) });
    await app.publish(author, { title: '周末活动', content_text: '没有相关的字', tags: ['野餐'], created_at: minutesAgo(1) });
    await app.publish(author, { title: '图书馆自习', content_text: '安静' });

    const result = await search(`keyword=${encodeURIComponent('野餐')}&type=all`);
    expect(titles(result)).toEqual(['周末活动', '野餐<b>攻略</b>', '校园里的秋天']);
    expect(result.posts.data[1].title_highlight).toBe('<em>野餐</em>&lt;b&gt;攻略&lt;/b&gt;');
    expect(result.posts.pagination).toEqual({ page: 1, limit: 20, total: 3, pages: 1 });
    expect(result.posts.data[0]).toMatchObject({ nickname: '野营达人', tags: [{ name: '野餐' }], liked: false, collected: false });
  });

  it('finds notes by tag, counts the tags of what it found, and orders equal matches by likes, then recency', async () => {
    const older = await app.publish(author, { title: '银杏大道', tags: ['银杏', '拍照'], created_at: minutesAgo(30) });
    await app.publish(author, { title: '银杏叶书签', tags: ['银杏', '手工'], created_at: minutesAgo(20) });
    const liked = await app.publish(author, { title: '落叶', tags: ['银杏', '拍照'], created_at: minutesAgo(40) });
    await app.deliver(postLiked.type, { post_id: liked.id, post_author_id: author.id, user_id: viewer.id, count: 5 });

    const result = await search(`tag=${encodeURIComponent('银杏')}`);
    expect(titles(result)).toEqual(['落叶', '银杏叶书签', '银杏大道']);
    expect(result.tagStats).toEqual([
      { id: '银杏', label: '银杏', count: 3 },
      { id: '拍照', label: '拍照', count: 2 },
      { id: '手工', label: '手工', count: 1 },
    ]);
    const both = await search(`tag=${encodeURIComponent('拍照')}&keyword=${encodeURIComponent('大道')}`);
    expect(titles(both)).toEqual(['银杏大道']);
    expect(both.posts.data[0].id).toBe(older.id);
  });

  it('shows the viewer their own likes and collections, and everyone the counts', async () => {
    const post = await app.publish(author, { title: '食堂麻辣香锅测评' });
    await app.deliver(postLiked.type, { post_id: post.id, post_author_id: author.id, user_id: viewer.id, count: 1 });
    await app.deliver(postCollected.type, { post_id: post.id, post_author_id: author.id, user_id: viewer.id, count: 1 });
    await app.deliver('comment.created', { comment: { id: 1, post_id: post.id, post_author_id: author.id, author_id: viewer.id, parent_id: null, reply_to_comment_id: null, reply_to_user_id: null, content_text: '好吃', images: [], created_at: minutesAgo(0) }, post_comment_count: 1 });

    const query = `keyword=${encodeURIComponent('麻辣香锅')}`;
    expect((await search(query, viewer.token)).posts.data[0]).toMatchObject({ liked: true, collected: true, like_count: 1, comment_count: 1 });
    expect((await search(query, author.token)).posts.data[0]).toMatchObject({ liked: false, collected: false, like_count: 1 });
    expect((await search(query)).posts.data[0]).toMatchObject({ liked: false, collected: false });
  });

  it('finds users by product ID and by nickname, with the viewer\'s follow state, which an older backfill never revives', async () => {
    const target = await app.user({ user_id: 'hiker_2026', nickname: '爱登山的小王' });
    await app.deliver(userFollowed.type, { follower_id: viewer.id, follower_user_id: viewer.userId, following_id: target.id, following_user_id: target.userId, follower_follow_count: 1, following_fans_count: 1 });
    await app.deliver(userFollowed.type, { follower_id: target.id, follower_user_id: target.userId, following_id: viewer.id, following_user_id: viewer.userId, follower_follow_count: 1, following_fans_count: 1 });

    const byId = await search('keyword=HIKER_2026&type=users', viewer.token);
    expect(byId.users.data).toEqual([expect.objectContaining({ user_id: 'hiker_2026', followed: true, isMutual: true, buttonType: 'mutual' })]);
    expect(byId.posts.data).toEqual([]);
    const byName = await search(`keyword=${encodeURIComponent('登山')}&type=user`, author.token);
    expect(byName.users.data).toEqual([expect.objectContaining({ nickname: '爱登山的小王', followed: false, buttonType: 'follow' })]);
    expect((await search('keyword=hiker_20')).users.data).toEqual([]);

    const later = new Date(Date.now() + 60_000);
    await app.deliver(userUnfollowed.type, { follower_id: viewer.id, follower_user_id: viewer.userId, following_id: target.id, following_user_id: target.userId, follower_follow_count: 0, following_fans_count: 0 }, later);
    await app.deliver(followAnnounced.type, { follower_id: viewer.id, follower_user_id: viewer.userId, following_id: target.id, following_user_id: target.userId, follower_follow_count: 1, following_fans_count: 1 });
    expect((await search('keyword=hiker_2026&type=users', viewer.token)).users.data).toEqual([expect.objectContaining({ followed: false, buttonType: 'back' })]);
    await app.deliver(followAnnounced.type, { follower_id: author.id, follower_user_id: author.userId, following_id: target.id, following_user_id: target.userId, follower_follow_count: 1, following_fans_count: 2 }, later);
    expect((await search('keyword=hiker_2026&type=users', author.token)).users.data).toEqual([expect.objectContaining({ followed: true, buttonType: 'unfollow', fans_count: 2 })]);
  });

  it('answers users as { data, pagination } like posts, each with isFollowing and their note count', async () => {
    const writer = await app.user({ user_id: 'pager_writer', nickname: '分页写手' });
    await app.publish(writer, { title: '写手的第一篇' });
    const deleted = await app.publish(writer, { title: '写手的第二篇' });
    await app.publish(writer, { title: '写手的第三篇' });
    await app.deliver(postDeleted.type, { id: deleted.id, author_id: writer.id, was_draft: false, like_count: 0, collect_count: 0, comment_count: 0, images: [], video_url: null, cover_url: null });
    await app.user({ user_id: 'pager_reader', nickname: '分页读者' });
    await app.deliver(userFollowed.type, { follower_id: viewer.id, follower_user_id: viewer.userId, following_id: writer.id, following_user_id: writer.userId, follower_follow_count: 1, following_fans_count: 1 });

    for (const type of ['users', 'all']) {
      const answer = await app.call<Result>('GET', `/api/search?keyword=${encodeURIComponent('分页')}&type=${type}&limit=1&page=1`, { token: viewer.token });
      expect([type, answer.status, documentedAnswerProblems('GET /api/search', answer.body)]).toEqual([type, 200, []]);
      expect(answer.body.data.users.pagination).toEqual({ page: 1, limit: 1, total: 2, pages: 2 });
      expect(answer.body.data.users.data).toHaveLength(1);
    }
    const both = await search(`keyword=${encodeURIComponent('分页')}&type=users`, viewer.token);
    expect(both.users.data.map((user) => [user.user_id, user.isFollowing, user.followed, user.post_count])).toEqual(
      expect.arrayContaining([
        ['pager_writer', true, true, 2],
        ['pager_reader', false, false, 0],
      ]),
    );
  });

  it('starts a video note\'s images with its cover, so a card reading images[0] shows it', async () => {
    await app.publish(author, { title: '封面视频', type: 2, images: [], video_url: '/api/files/videos/cover.mp4', cover_url: '/api/files/covers/cover.jpg' });
    await app.publish(author, { title: '封面图文', type: 1, images: ['/api/files/images/a.png', '/api/files/images/b.png'] });
    const answer = await app.call<Result>('GET', `/api/search?keyword=${encodeURIComponent('封面')}&type=all`);
    const byTitle = Object.fromEntries(answer.body.data.posts.data.map((card) => [card.title, card.images]));
    expect(byTitle).toEqual({ 封面视频: ['/api/files/covers/cover.jpg'], 封面图文: ['/api/files/images/a.png', '/api/files/images/b.png'] });
    expect([answer.status, documentedAnswerProblems('GET /api/search', answer.body)]).toEqual([200, []]);
  });

  it('filters by type, taking the singular forms too', async () => {
    await app.publish(author, { title: '篮球赛图文', type: 1 });
    await app.publish(author, { title: '篮球赛视频', type: 2, video_url: '/api/files/videos/1.mp4' });
    const keyword = `keyword=${encodeURIComponent('篮球赛')}`;
    expect(titles(await search(`${keyword}&type=posts`))).toEqual(['篮球赛图文']);
    expect(titles(await search(`${keyword}&type=post`))).toEqual(['篮球赛图文']);
    expect(titles(await search(`${keyword}&type=videos`))).toEqual(['篮球赛视频']);
    expect(titles(await search(`${keyword}&type=video`))).toEqual(['篮球赛视频']);
    expect(titles(await search(`${keyword}&type=all`)).sort()).toEqual(['篮球赛图文', '篮球赛视频']);
    expect(titles(await search(keyword))).toEqual(['篮球赛图文']);
    expect((await search(`${keyword}&type=users`)).posts.pagination.total).toBe(0);
  });

  it('never indexes a draft, and forgets deleted notes and users', async () => {
    const draft = postSnapshot(author, { title: '草稿里的烧烤计划' });
    await app.deliver(postDraftSaved.type, { post: draft });
    expect(titles(await search(`keyword=${encodeURIComponent('烧烤计划')}`))).toEqual([]);

    const post = await app.publish(author, { title: '湖边烧烤记录' });
    expect(titles(await search(`keyword=${encodeURIComponent('烧烤')}`))).toEqual(['湖边烧烤记录']);
    await app.deliver(postDeleted.type, { id: post.id, author_id: author.id, was_draft: false, like_count: 0, collect_count: 0, comment_count: 0, images: [], video_url: null, cover_url: null });
    expect(titles(await search(`keyword=${encodeURIComponent('烧烤')}`))).toEqual([]);

    const leaving = await app.user({ user_id: 'leaving_one', nickname: '即将注销' });
    expect((await search('keyword=leaving_one&type=users')).users.data).toHaveLength(1);
    await app.deliver(userDeleted.type, { id: leaving.id, user_id: leaving.userId });
    expect((await search('keyword=leaving_one&type=users')).users.data).toEqual([]);
  });

  it('keeps the newest state whatever order events arrive in, and each event once', async () => {
    const t = (seconds: number) => new Date(Date.UTC(2026, 10, 1, 0, 0, seconds));
    const post = postSnapshot(author, { title: '旧标题：操场夜跑' });
    await app.deliver(postUpdated.type, { post: { ...post, title: '新标题：操场夜跑打卡' } }, t(20));
    await app.publish(author, post, t(10));
    await app.deliver(postLiked.type, { post_id: post.id, post_author_id: author.id, user_id: viewer.id, count: 2 }, t(30));
    await app.deliver(postLiked.type, { post_id: post.id, post_author_id: author.id, user_id: author.id, count: 1 }, t(25));
    const found = await search(`keyword=${encodeURIComponent('夜跑')}`);
    expect(found.posts.data.map((card) => [card.title, card.like_count])).toEqual([['新标题：操场夜跑打卡', 2]]);

    const deleted = { id: post.id, author_id: author.id, was_draft: false, like_count: 2, collect_count: 0, comment_count: 0, images: [], video_url: null, cover_url: null };
    await app.deliver(postDeleted.type, deleted, t(40));
    await app.deliver(postUpdated.type, { post: { ...post, title: '迟到的修改：夜跑' } }, t(35));
    expect(titles(await search(`keyword=${encodeURIComponent('夜跑')}`))).toEqual([]);

    const renamed = await app.user({ nickname: '改名前的昵称' });
    const profile = { id: renamed.id, user_id: renamed.userId, avatar: '', bio: '', location: '', verified: 0 as const };
    await app.deliver(userUpdated.type, { user: { ...profile, nickname: '改名后的昵称' } }, new Date(Date.now() + 60_000));
    await app.deliver(userUpdated.type, { user: { ...profile, nickname: '过时的昵称' } }, new Date(Date.now() + 30_000));
    expect((await search(`keyword=${encodeURIComponent('昵称')}&type=users`)).users.data.map((user) => user.nickname)).toEqual(['改名后的昵称']);

    const envelope = app.envelope(postLiked.type, { post_id: 1, post_author_id: author.id, user_id: viewer.id, count: 1 });
    await app.bus.deliver(envelope);
    await app.bus.deliver(envelope);
    expect(await app.query(`SELECT count(*)::int AS "n" FROM "inbox" WHERE "event_id" = $1`, [envelope.id])).toEqual([{ n: 1 }]);
  });

  it('takes a run of likes and unlikes of one note as its newest count and each student’s newest state', async () => {
    const t = (seconds: number) => new Date(Date.UTC(2026, 10, 3, 0, 0, seconds));
    const post = await app.publish(author, { title: '天文社楼顶观星夜' }, t(1));
    const like = (user: { id: number }, on: boolean, count: number, at: number) =>
      ({ envelope: app.envelope(on ? postLiked.type : postUnliked.type, { post_id: post.id, post_author_id: author.id, user_id: user.id, count }, t(at)), delivery: {} });
    // One delivery, as the relay and Kafka hand over what arrived together; the last one is older than the rest.
    await app.bus.deliverAll([like(viewer, true, 1, 10), like(author, true, 2, 11), like(viewer, false, 1, 12), like(viewer, true, 2, 9)]);

    const query = `keyword=${encodeURIComponent('观星')}`;
    expect((await search(query, viewer.token)).posts.data).toEqual([expect.objectContaining({ like_count: 1, liked: false })]);
    expect((await search(query, author.token)).posts.data).toEqual([expect.objectContaining({ like_count: 1, liked: true })]);
  });

  it('indexes a backfill announcement with its counts and who likes and collects it, never over newer state', async () => {
    const t = (seconds: number) => new Date(Date.UTC(2026, 10, 2, 0, 0, seconds));
    const post = postSnapshot(author, { title: '补录的旧笔记：晨读' });
    await app.deliver(postLiked.type, { post_id: post.id, post_author_id: author.id, user_id: viewer.id, count: 9 }, t(20));
    await app.deliver(postUncollected.type, { post_id: post.id, post_author_id: author.id, user_id: author.id, count: 2 }, t(20));
    await app.deliver(postAnnounced.type, { post, like_count: 7, collect_count: 3, comment_count: 4, liked_by: [author.id], collected_by: [author.id, viewer.id] }, t(10));
    const query = `keyword=${encodeURIComponent('晨读')}`;
    expect((await search(query, viewer.token)).posts.data).toEqual([expect.objectContaining({ title: '补录的旧笔记：晨读', like_count: 9, comment_count: 4, liked: true, collected: true })]);
    expect((await search(query, author.token)).posts.data).toEqual([expect.objectContaining({ liked: true, collected: false })]);
  });

  it('answers the notes alone at /search/posts, and pages', async () => {
    for (let i = 0; i < 3; i++) await app.publish(author, { title: `宿舍改造第${i + 1}期`, created_at: minutesAgo(10 - i) });
    const answer = await app.call<{ posts: Card[]; pagination: { total: number; pages: number } }>('GET', `/api/search/posts?keyword=${encodeURIComponent('宿舍改造')}&limit=2&page=2`);
    expect(answer.status).toBe(200);
    expect(answer.body.data.posts.map((card) => card.title)).toEqual(['宿舍改造第1期']);
    expect(answer.body.data.pagination).toMatchObject({ total: 3, pages: 2 });
  });

  it('completes what is typed from tags, nicknames and titles', async () => {
    await app.publish(author, { title: '摄影入门：构图', tags: ['摄影社'] });
    await app.user({ nickname: '摄影师阿杰' });
    const answer = await app.call<{ suggestions: { kind: string; text: string }[] }>('GET', `/api/search/suggest?keyword=${encodeURIComponent('摄影')}`);
    expect(answer.status).toBe(200);
    expect(answer.body.data.suggestions.map((item) => [item.kind, item.text])).toEqual([
      ['tag', '摄影社'],
      ['user', '摄影师阿杰'],
      ['post', '摄影入门：构图'],
    ]);
  });

  it('asks for a keyword or a tag, and answers hostile input cleanly', async () => {
    for (const query of ['', 'type=all', `keyword=${encodeURIComponent('   ')}`]) {
      const answer = await app.call('GET', `/api/search?${query}`);
      expect([answer.status, answer.body.message]).toEqual([400, '请输入搜索关键词或选择标签']);
    }
    expect((await app.call('GET', `/api/search?keyword=${'长'.repeat(101)}`)).status).toBe(400);
    expect((await app.call('GET', '/api/search?keyword=a&type=everything')).status).toBe(400);
    expect((await app.call('GET', '/api/search/suggest')).status).toBe(400);
    expect((await app.call('GET', `/api/search?keyword=${encodeURIComponent('a\u0000b')}`)).status).toBe(400);
    for (const keyword of ['title:(a OR b) AND *', '\\"[{}]/~^', '%_\\', '*', '野餐 ** ~~', '\u200b']) {
      for (const path of ['/api/search?type=all&keyword=', '/api/search/posts?keyword=', '/api/search/suggest?keyword=']) {
        const answer = await app.call('GET', `${path}${encodeURIComponent(keyword)}`);
        expect([path, keyword, answer.status]).toEqual([path, keyword, 200]);
      }
    }
    expect((await app.call('GET', `/api/search?keyword=a&page=1000000`)).status).toBe(200);
  });
});
