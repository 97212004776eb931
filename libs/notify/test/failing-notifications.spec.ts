import { postLiked, postPublished } from '@shiliu/contracts';
import { NotifyTestApp, postSnapshot } from './notify-test-app';

/** Who may not do what: anyone else's notification is as good as missing, and the activity monitor is for administrators. */
describe('notifications refused', () => {
  let app: NotifyTestApp;

  beforeAll(async () => {
    app = await NotifyTestApp.start();
  });

  afterAll(async () => {
    await app?.close();
  });

  it('answers 404 for another user’s notification on every call, and changes nothing', async () => {
    const author = await app.user();
    const fan = await app.user();
    const stranger = await app.user();
    const post = postSnapshot(author);
    await app.deliver(postPublished.type, { post });
    await app.deliver(postLiked.type, { post_id: post.id, post_author_id: author.id, user_id: fan.id, count: 1 });
    const [notification] = (await app.call<{ notifications: { id: number }[] }>('GET', '/api/notifications/likes', { token: author.token })).body.data.notifications;

    for (const who of [stranger, fan]) {
      expect((await app.call('GET', '/api/notifications/likes', { token: who.token })).body.data).toMatchObject({ notifications: [] });
      const read = await app.call('PUT', `/api/notifications/${notification.id}/read`, { token: who.token });
      expect(read.body).toEqual({ code: 404, message: '资源不存在', data: null });
      expect((await app.call('DELETE', `/api/notifications/${notification.id}`, { token: who.token })).status).toBe(404);
      await app.call('PUT', '/api/notifications/read-all', { token: who.token });
    }
    expect((await app.call('GET', '/api/notifications/unread-count', { token: author.token })).body.data).toMatchObject({ likes: 1, count: 1 });
    expect((await app.call('PUT', '/api/notifications/not-a-number/read', { token: author.token })).status).toBe(404);
    expect((await app.call('PUT', '/api/notifications/99999999/read', { token: author.token })).status).toBe(404);
    // Deleted once, it is gone for its owner too.
    expect((await app.call('DELETE', `/api/notifications/${notification.id}`, { token: author.token })).status).toBe(200);
    expect((await app.call('DELETE', `/api/notifications/${notification.id}`, { token: author.token })).status).toBe(404);
  });

  it('needs a logged-in user for every notification call', async () => {
    for (const [method, path] of [
      ['GET', '/api/notifications/comments'],
      ['GET', '/api/notifications/likes'],
      ['GET', '/api/notifications/collections'],
      ['GET', '/api/notifications/follows'],
      ['GET', '/api/notifications/unread-count'],
      ['GET', '/api/notifications/unread-count-by-type'],
      ['PUT', '/api/notifications/read-all'],
      ['PUT', '/api/notifications/1/read'],
      ['DELETE', '/api/notifications/1'],
      ['POST', '/api/notifications/stream/ticket'],
      ['GET', '/api/notifications/stream?ticket=forged'],
    ]) {
      expect({ path, status: (await app.call(method, path)).status }).toEqual({ path, status: 401 });
    }
    const admin = await app.adminToken();
    expect((await app.call('GET', '/api/notifications/likes', { token: admin })).status).toBe(401);
  });

  it('refuses a tab that does not exist', async () => {
    const user = await app.user();
    const answer = await app.call('PUT', '/api/notifications/read-all?type=shares', { token: user.token });
    expect(answer.status).toBe(400);
  });

  it('shows the activity monitor to administrators only', async () => {
    const student = await app.user();
    expect((await app.call('GET', '/api/admin/monitor/activities')).status).toBe(401);
    expect((await app.call('GET', '/api/admin/monitor/activities', { token: student.token })).body).toEqual({ code: 403, message: '禁止访问', data: null });
    expect((await app.call('GET', '/api/admin/monitor/activities', { token: await app.adminToken() })).status).toBe(200);
  });
});
