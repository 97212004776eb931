import { type FollowChangePayload, userFollowed, userUnfollowed } from '@shiliu/contracts';
import { SocialTestApp, type TestUser } from './social-test-app';

interface Page<T> {
  data: T[];
  pagination: { total: number };
}
interface AdminFollow {
  id: number;
  follower_display_id: string;
  follower_nickname: string;
  following_display_id: string;
  following_nickname: string;
}

describe('admin back office: follows (social service, PostgreSQL)', () => {
  let app: SocialTestApp;
  let admin: string;
  let fan: TestUser;
  let star: TestUser;

  const stats = async (user: TestUser) => (await app.call<{ follow_count: number; fans_count: number }>('GET', `/api/users/${user.userId}/stats`)).body.data;
  const payloads = async (type: string): Promise<FollowChangePayload[]> => (await app.events(type)).map((event) => event.payload as FollowChangePayload);

  beforeAll(async () => {
    app = await SocialTestApp.start();
    admin = await app.adminToken();
    fan = await app.user({ nickname: '粉丝' });
    star = await app.user({ nickname: '明星' });
  });

  afterAll(async () => {
    await app?.close();
  });

  it.each([
    ['GET', '/api/admin/follows'],
    ['POST', '/api/admin/follows'],
    ['DELETE', '/api/admin/follows/1'],
    ['DELETE', '/api/admin/follows'],
  ])('%s %s: 401 without a token, 403 with a student token', async (method, path) => {
    const body = method === 'GET' ? undefined : {};
    expect((await app.call(method, path, { body })).body).toEqual({ code: 401, message: '未授权访问', data: null });
    expect((await app.call(method, path, { body, token: fan.token })).body).toEqual({ code: 403, message: '禁止访问', data: null });
  });

  it('follows in the follower\'s name, lists both names, and unfollows with the same counters and events', async () => {
    const created = await app.call<AdminFollow>('POST', '/api/admin/follows', { token: admin, body: { follower_id: fan.userId, following_id: String(star.id) } });
    expect(created.body).toMatchObject({ code: 200, data: { follower_display_id: fan.userId, follower_nickname: '粉丝', following_display_id: star.userId, following_nickname: '明星' } });
    expect(await stats(star)).toMatchObject({ fans_count: 1 });
    expect((await payloads(userFollowed.type)).some((payload) => payload.follower_id === fan.id && payload.following_id === star.id)).toBe(true);

    const listed = await app.call<Page<AdminFollow>>('GET', `/api/admin/follows?following_display_id=${star.userId}&sortField=created_at`, { token: admin });
    expect(listed.body.data.data.map((follow) => follow.id)).toEqual([created.body.data.id]);
    expect((await app.call('GET', '/api/admin/follows?sortField=follower_id', { token: admin })).status).toBe(400);
    expect((await app.call('POST', '/api/admin/follows', { token: admin, body: { follower_id: fan.userId, following_id: 'nobody_x' } })).status).toBe(404);

    expect((await app.call('DELETE', '/api/admin/follows', { token: admin, body: { ids: [created.body.data.id, 999999999] } })).body).toEqual({ code: 200, message: '批量删除成功', data: { deletedCount: 1 } });
    expect(await stats(star)).toMatchObject({ fans_count: 0 });
    expect(await stats(fan)).toMatchObject({ follow_count: 0 });
    expect((await payloads(userUnfollowed.type)).some((payload) => payload.follower_id === fan.id && payload.following_id === star.id)).toBe(true);
    expect((await app.call('DELETE', `/api/admin/follows/${created.body.data.id}`, { token: admin })).status).toBe(404);
  });
});
