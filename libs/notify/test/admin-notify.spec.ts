import { adminActed, postLiked, postPublished, userFollowed } from '@shiliu/contracts';
import { documentedAnswerProblems } from '@shiliu/platform/testing';
import { NotifyTestApp, postSnapshot, type TestUser } from './notify-test-app';

interface Page<T> {
  data: T[];
  pagination: { total: number };
}
interface AdminNotification {
  id: number;
  user_display_id: string;
  sender_display_id: string;
  sender_nickname: string;
  type: number;
  title: string;
  is_read: boolean;
}
interface AdminAction {
  admin_name: string;
  service: string;
  method: string;
  path: string;
  entity: string;
  target_ids: number[];
  created_at: string;
}

describe('admin back office: notifications and the administrators\' audit log (notify service, PostgreSQL)', () => {
  let app: NotifyTestApp;
  let admin: string;
  let author: TestUser;
  let fan: TestUser;

  const unread = async (user: TestUser) => (await app.call<{ likes: number; follows: number }>('GET', '/api/notifications/unread-count', { token: user.token })).body.data;

  beforeAll(async () => {
    app = await NotifyTestApp.start();
    admin = await app.adminToken();
    author = await app.user({ nickname: '作者' });
    fan = await app.user({ nickname: '粉丝' });
  });

  afterAll(async () => {
    await app?.close();
  });

  it.each([
    ['GET', '/api/admin/notifications'],
    ['POST', '/api/admin/notifications'],
    ['PUT', '/api/admin/notifications/1'],
    ['DELETE', '/api/admin/notifications/1'],
    ['DELETE', '/api/admin/notifications'],
    ['GET', '/api/admin/monitor/admin-actions'],
  ])('%s %s: 401 without a token, 403 with a student token', async (method, path) => {
    const body = method === 'GET' ? undefined : {};
    expect((await app.call(method, path, { body })).body).toEqual({ code: 401, message: '未授权访问', data: null });
    expect((await app.call(method, path, { body, token: fan.token })).body).toEqual({ code: 403, message: '禁止访问', data: null });
  });

  it('lists notifications with both users\' names and a title, marks them read and deletes them with the unread counters', async () => {
    const post = postSnapshot(author, { title: '春天的操场' });
    await app.deliver(postPublished.type, { post });
    await app.deliver(postLiked.type, { post_id: post.id, post_author_id: author.id, user_id: fan.id, count: 1 });
    await app.deliver(userFollowed.type, { follower_id: fan.id, follower_user_id: fan.userId, following_id: author.id, following_user_id: author.userId, follower_follow_count: 1, following_fans_count: 1 });
    const listed = await app.call<Page<AdminNotification>>('GET', `/api/admin/notifications?user_display_id=${author.userId}&sortField=id&sortOrder=asc`, { token: admin });
    expect(listed.body.data.data).toEqual([
      expect.objectContaining({ type: 1, title: '赞了你的笔记《春天的操场》', sender_display_id: fan.userId, sender_nickname: '粉丝', is_read: false }),
      expect.objectContaining({ type: 6, title: '关注了你', user_display_id: author.userId }),
    ]);
    expect((await app.call('GET', '/api/admin/notifications?sortField=hidden_by', { token: admin })).status).toBe(400);
    expect(await unread(author)).toMatchObject({ likes: 1, follows: 1 });

    const [like, follow] = listed.body.data.data;
    expect((await app.call<AdminNotification>('PUT', `/api/admin/notifications/${like.id}`, { token: admin, body: { is_read: 1 } })).body.data.is_read).toBe(true);
    expect(await unread(author)).toMatchObject({ likes: 0, follows: 1 });
    await app.call('PUT', `/api/admin/notifications/${like.id}`, { token: admin, body: { is_read: false } });
    expect(await unread(author)).toMatchObject({ likes: 1 });

    expect((await app.call('DELETE', '/api/admin/notifications', { token: admin, body: { ids: [like.id, follow.id] } })).body).toEqual({ code: 200, message: '批量删除成功', data: { deletedCount: 2 } });
    expect(await unread(author)).toMatchObject({ likes: 0, follows: 0 });
    expect((await app.call('DELETE', `/api/admin/notifications/${like.id}`, { token: admin })).status).toBe(404);

    const made = await app.call<AdminNotification>('POST', '/api/admin/notifications', { token: admin, body: { user_id: author.userId, sender_id: fan.userId, type: 3, target_id: post.id, post_id: post.id } });
    expect(made.body).toMatchObject({ code: 200, data: { type: 3, title: '收藏了你的笔记《春天的操场》', is_read: false } });
    expect((await app.call('POST', '/api/admin/notifications', { token: admin, body: { user_id: author.userId, sender_id: fan.userId, type: 9, target_id: 1 } })).status).toBe(400);
  });

  it('keeps the title an administrator gives a notification made by hand, lists and filters by it, and refuses one too long', async () => {
    const post = postSnapshot(author, { title: '图书馆闭馆通知' });
    await app.deliver(postPublished.type, { post });
    const form = { user_id: author.userId, sender_id: fan.userId, type: 1, target_id: post.id, post_id: post.id };
    const made = await app.call<AdminNotification>('POST', '/api/admin/notifications', { token: admin, body: { ...form, title: '  期末周图书馆延长开放  ' } });
    expect(made.body).toMatchObject({ code: 200, data: { type: 1, title: '期末周图书馆延长开放' } });
    const found = await app.call<Page<AdminNotification>>('GET', `/api/admin/notifications?title=${encodeURIComponent('延长开放')}`, { token: admin });
    expect(found.body.data.data.map((row) => row.id)).toEqual([made.body.data.id]);
    const tooLong = await app.call('POST', '/api/admin/notifications', { token: admin, body: { ...form, target_id: post.id + 1, title: '长'.repeat(101) } });
    expect([tooLong.status, tooLong.body]).toEqual([400, { code: 400, message: '标题不能超过100个字符', data: null }]);
  });

  it('drops empty query parameters and filters notifications by every field the table shows, the title by substring', async () => {
    const receiver = await app.user({ nickname: '收件人' });
    const post = postSnapshot(receiver, { title: '银杏大道的秋天' });
    await app.deliver(postPublished.type, { post });
    await app.deliver(postLiked.type, { post_id: post.id, post_author_id: receiver.id, user_id: fan.id, count: 1 });
    await app.deliver(userFollowed.type, { follower_id: fan.id, follower_user_id: fan.userId, following_id: receiver.id, following_user_id: receiver.userId, follower_follow_count: 1, following_fans_count: 1 });

    const everyEmpty = await app.call<Page<AdminNotification>>('GET', '/api/admin/notifications?user_display_id=&type=&is_read=&title=&sender_display_id=&sender_nickname=&target_id=&comment_id=&user_id=&sender_id=', { token: admin });
    expect([everyEmpty.status, documentedAnswerProblems('GET /api/admin/notifications', everyEmpty.body)]).toEqual([200, []]);
    expect(everyEmpty.body.data.pagination.total).toBeGreaterThanOrEqual(2);
    const part = receiver.userId.slice(1);
    const byTitle = await app.call<Page<AdminNotification>>('GET', `/api/admin/notifications?user_display_id=${part}&title=${encodeURIComponent('杏大道')}&is_read=false&type=`, { token: admin });
    expect(byTitle.body.data.data).toEqual([expect.objectContaining({ type: 1, title: '赞了你的笔记《银杏大道的秋天》', user_display_id: receiver.userId })]);
    const bySaid = await app.call<Page<AdminNotification>>('GET', `/api/admin/notifications?user_display_id=${part}&title=${encodeURIComponent('关注')}&sender_nickname=${encodeURIComponent('粉')}&type=6`, { token: admin });
    expect(bySaid.body.data.data.map((row) => row.type)).toEqual([6]);
  });

  it('announces its own administrator writes and keeps those of every service in the log the console reads', async () => {
    const own = (await app.events(adminActed.type)).map((event) => event.payload as AdminAction);
    expect(own.map((row) => [row.method, row.entity])).toEqual(expect.arrayContaining([['PUT', 'notifications'], ['DELETE', 'notifications'], ['POST', 'notifications']]));
    const action = { admin_id: 1, admin_name: 'admin', service: 'content', method: 'DELETE', path: '/api/admin/posts/12', entity: 'posts', target_ids: [12] };
    await app.deliver(adminActed.type, action);
    const fromContent = await app.call<Page<AdminAction>>('GET', '/api/admin/monitor/admin-actions?service=content', { token: admin });
    expect(fromContent.body.data.data).toEqual([expect.objectContaining({ admin_name: 'admin', method: 'DELETE', path: '/api/admin/posts/12', entity: 'posts', target_ids: [12] })]);
    expect((await app.call('GET', '/api/admin/monitor/admin-actions?sortField=path', { token: admin })).status).toBe(400);
  });
});
