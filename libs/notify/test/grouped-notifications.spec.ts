import { commentLiked, postCollected, postLiked, postPublished, postUnliked } from '@shiliu/contracts';
import { NotifyTestApp, postSnapshot, type TestUser } from './notify-test-app';

interface Group {
  type: number;
  title: string;
  day: string;
  target_id: number;
  target_type: number;
  actors: { user_id: string; nickname: string; avatar: string; verified: number }[];
  actor_count: number;
  latest_at: string;
  is_read: number;
  post_id: number | null;
  post_title: string | null;
  post_image: string | null;
  comment_id: number | null;
  comment_content: string | null;
}

interface GroupPage {
  groups: Group[];
  pagination: { page: number; limit: number; total: number; pages: number };
}

type Counts = Record<'comments' | 'likes' | 'collections' | 'follows' | 'total' | 'count', number>;

/** `?group=target` on the likes and collections tabs, and marking a whole group read, through the HTTP calls. */
describe('grouped notifications', () => {
  let app: NotifyTestApp;

  beforeAll(async () => {
    app = await NotifyTestApp.start();
  });

  afterAll(async () => {
    await app?.close();
  });

  afterEach(async () => {
    expect(await app.counterDrift()).toEqual([]);
  });

  const grouped = async (who: TestUser, tab: string, query = '') => {
    const answer = await app.call<GroupPage>('GET', `/api/notifications/${tab}?group=target${query}`, { token: who.token });
    expect(answer.status).toBe(200);
    return answer.body.data;
  };
  const counts = async (who: TestUser) => (await app.call<Counts>('GET', '/api/notifications/unread-count-by-type', { token: who.token })).body.data;
  /** Noon on the campus day `day` (Asia/Shanghai), plus `minutes`. */
  const at = (day: string, minutes = 0) => new Date(Date.parse(`${day}T12:00:00+08:00`) + minutes * 60_000);

  it('makes one item per note and day with the newest three senders, the count and the note', async () => {
    const author = await app.user({ nickname: '作者' });
    const fans = [];
    for (const nickname of ['林小雨', '陈默', '王一', '赵二']) fans.push(await app.user({ nickname, verified: nickname === '陈默' ? 2 : 0 }));
    const post = postSnapshot(author, { title: '图书馆的秋天', images: ['/api/files/images/autumn.png'] });
    const other = postSnapshot(author, { title: '食堂新菜' });
    await app.deliver(postPublished.type, { post });
    await app.deliver(postPublished.type, { post: other });
    const like = (target: typeof post, who: TestUser, when: Date) =>
      app.deliver(postLiked.type, { post_id: target.id, post_author_id: author.id, user_id: who.id, count: 1 }, when);

    // 2026-03-01 (Shanghai): four likes on the note; the one at 23:30 UTC the day before is already 07:30 on the 1st there.
    await app.deliver(postLiked.type, { post_id: post.id, post_author_id: author.id, user_id: fans[3].id, count: 1 }, new Date('2026-02-28T23:30:00Z'));
    await like(post, fans[2], at('2026-03-01', 1));
    await like(post, fans[1], at('2026-03-01', 2));
    await like(post, fans[0], at('2026-03-01', 3));
    // The other note the next day, by one student.
    await like(other, fans[0], at('2026-03-02'));

    const page = await grouped(author, 'likes');
    expect(page.pagination).toEqual({ page: 1, limit: 20, total: 2, pages: 1 });
    expect(page.groups.map((group) => [group.post_title, group.day, group.actor_count])).toEqual([
      ['食堂新菜', '2026-03-02', 1],
      ['图书馆的秋天', '2026-03-01', 4],
    ]);
    expect(page.groups[1]).toEqual({
      type: 1,
      title: '赞了你的笔记',
      day: '2026-03-01',
      target_id: post.id,
      target_type: 1,
      actors: [
        { user_id: fans[0].userId, nickname: '林小雨', avatar: expect.stringContaining('/api/files/avatars/'), verified: 0 },
        { user_id: fans[1].userId, nickname: '陈默', avatar: expect.stringContaining('/api/files/avatars/'), verified: 2 },
        { user_id: fans[2].userId, nickname: '王一', avatar: expect.stringContaining('/api/files/avatars/'), verified: 0 },
      ],
      actor_count: 4,
      latest_at: at('2026-03-01', 3).toISOString(),
      is_read: 0,
      post_id: post.id,
      post_title: '图书馆的秋天',
      post_image: '/api/files/images/autumn.png',
      comment_id: null,
      comment_content: null,
    });

    // Paging counts groups, not notifications.
    const second = await grouped(author, 'likes', '&page=2&limit=1');
    expect(second.pagination).toEqual({ page: 2, limit: 1, total: 2, pages: 2 });
    expect(second.groups.map((group) => group.target_id)).toEqual([post.id]);
    expect((await grouped(author, 'likes', '&page=3&limit=1')).pagination.total).toBe(2);

    // The ungrouped tab is unchanged: one item per like.
    const flat = await app.call<{ notifications: unknown[] }>('GET', '/api/notifications/likes', { token: author.token });
    expect(flat.body.data.notifications).toHaveLength(5);
  });

  it('groups comment likes by comment and collections by note, and leaves out what was undone', async () => {
    const author = await app.user();
    const [a, b] = [await app.user({ nickname: '林小雨' }), await app.user({ nickname: '陈默' })];
    const post = postSnapshot(author);
    await app.deliver(postPublished.type, { post });
    const comment = { id: 777_001, post_id: post.id };
    for (const who of [a, b]) {
      await app.deliver(commentLiked.type, { comment_id: comment.id, post_id: post.id, comment_author_id: author.id, user_id: who.id, count: 1 });
      await app.deliver(postCollected.type, { post_id: post.id, post_author_id: author.id, user_id: who.id, count: 1 });
    }
    await app.deliver(postLiked.type, { post_id: post.id, post_author_id: author.id, user_id: a.id, count: 1 });
    await app.deliver(postUnliked.type, { post_id: post.id, post_author_id: author.id, user_id: a.id, count: 0 });

    const likes = (await grouped(author, 'likes')).groups;
    expect(likes).toHaveLength(1);
    expect(likes[0]).toMatchObject({ type: 2, title: '赞了你的评论', target_id: comment.id, target_type: 2, comment_id: comment.id, post_id: post.id, actor_count: 2 });
    expect(likes[0].actors.map((actor) => actor.nickname)).toEqual(['陈默', '林小雨']);
    const collections = (await grouped(author, 'collections')).groups;
    expect(collections).toHaveLength(1);
    expect(collections[0]).toMatchObject({ type: 3, title: '收藏了你的笔记', target_id: post.id, target_type: 1, actor_count: 2 });
  });

  it('marks a whole group read, and a group is read only when every notification in it is', async () => {
    const author = await app.user();
    const fans = [await app.user(), await app.user(), await app.user()];
    const post = postSnapshot(author);
    await app.deliver(postPublished.type, { post });
    for (const [index, fan] of fans.entries()) {
      await app.deliver(postLiked.type, { post_id: post.id, post_author_id: author.id, user_id: fan.id, count: 1 }, at('2026-04-10', index));
    }
    await app.deliver(postLiked.type, { post_id: post.id, post_author_id: author.id, user_id: (await app.user()).id, count: 1 }, at('2026-04-11'));
    expect((await counts(author)).likes).toBe(4);

    // One of three read leaves the group unread.
    const flat = await app.call<{ notifications: { id: number }[] }>('GET', '/api/notifications/likes', { token: author.token });
    await app.call('PUT', `/api/notifications/${flat.body.data.notifications[1].id}/read`, { token: author.token });
    expect((await grouped(author, 'likes')).groups.map((group) => group.is_read)).toEqual([0, 0]);

    const read = await app.call<Counts>('PUT', '/api/notifications/groups/read', { token: author.token, body: { type: 1, target_id: post.id, day: '2026-04-10' } });
    expect(read.status).toBe(200);
    expect(read.body.message).toBe('已标记为已读');
    expect(read.body.data).toMatchObject({ likes: 1, total: 1 });
    expect((await grouped(author, 'likes')).groups.map((group) => [group.day, group.is_read])).toEqual([
      ['2026-04-11', 0],
      ['2026-04-10', 1],
    ]);
    // Marking it again changes nothing and still answers the counts.
    const again = await app.call<Counts>('PUT', '/api/notifications/groups/read', { token: author.token, body: { type: 1, target_id: post.id, day: '2026-04-10' } });
    expect(again.body.data).toMatchObject({ likes: 1 });
  });

  it('refuses a wrong group or a group that is not the user’s', async () => {
    const author = await app.user();
    const fan = await app.user();
    const post = postSnapshot(author);
    await app.deliver(postPublished.type, { post });
    await app.deliver(postLiked.type, { post_id: post.id, post_author_id: author.id, user_id: fan.id, count: 1 }, at('2026-05-01'));
    const group = { type: 1, target_id: post.id, day: '2026-05-01' };

    for (const [body, message] of [
      [{ ...group, type: 4 }, 'type 必须是 1（赞了笔记）、2（赞了评论）或 3（收藏了笔记）'],
      [{ ...group, target_id: 'x' }, 'target_id 必须是正整数'],
      [{ ...group, target_id: 0 }, 'target_id 必须是正整数'],
      [{ ...group, day: '2026/05/01' }, 'day 必须是 YYYY-MM-DD 格式的日期'],
      [{ ...group, day: '2026-02-30' }, 'day 必须是 YYYY-MM-DD 格式的日期'],
      [{ type: 1, target_id: post.id }, 'day 必须是 YYYY-MM-DD 格式的日期'],
    ] as const) {
      expect({ body, answer: (await app.call('PUT', '/api/notifications/groups/read', { token: author.token, body })).body }).toEqual({ body, answer: { code: 400, message, data: null } });
    }
    expect((await app.call('GET', '/api/notifications/likes?group=note', { token: author.token })).body).toEqual({ code: 400, message: 'group 只能是 target', data: null });
    expect((await app.call('PUT', '/api/notifications/groups/read', { body: group })).status).toBe(401);

    // Someone else's group, or a day without one, is as good as missing, and nothing changes.
    const missing = { code: 404, message: '资源不存在', data: null };
    expect((await app.call('PUT', '/api/notifications/groups/read', { token: fan.token, body: group })).body).toEqual(missing);
    expect((await app.call('PUT', '/api/notifications/groups/read', { token: author.token, body: { ...group, day: '2026-05-02' } })).body).toEqual(missing);
    expect((await counts(author)).likes).toBe(1);
  });
});
