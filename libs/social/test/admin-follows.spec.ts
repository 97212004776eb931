import { adminActed, type AdminActedPayload, type FollowChangePayload, userFollowed, userUnfollowed } from '@shiliu/contracts';
import { documentedAnswerProblems } from '@shiliu/platform/testing';
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
    ['PUT', '/api/admin/follows/1'],
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

  it('drops empty query parameters and filters follows by every field the table shows, text by substring', async () => {
    const reader = await app.user({ nickname: '字段读者' });
    const writer = await app.user({ nickname: '字段作者' });
    const made = (await app.call<AdminFollow>('POST', '/api/admin/follows', { token: admin, body: { follower_id: reader.userId, following_id: writer.userId } })).body.data;
    const everyEmpty = await app.call<Page<AdminFollow>>('GET', '/api/admin/follows?follower_id=&follower_display_id=&follower_nickname=&following_id=&following_display_id=&following_nickname=&search=', { token: admin });
    expect([everyEmpty.status, documentedAnswerProblems('GET /api/admin/follows', everyEmpty.body)]).toEqual([200, []]);
    const filtered = await app.call<Page<AdminFollow>>(
      'GET',
      `/api/admin/follows?follower_nickname=${encodeURIComponent('段读')}&following_nickname=${encodeURIComponent('段作')}&follower_display_id=${reader.userId.slice(1)}&following_id=${writer.id}`,
      { token: admin },
    );
    expect(filtered.body.data.data.map((follow) => follow.id)).toEqual([made.id]);
    expect((await app.call<Page<AdminFollow>>('GET', `/api/admin/follows?follower_nickname=${encodeURIComponent('段作')}`, { token: admin })).body.data.data).toEqual([]);
  });

  it('moves a follow to another pair in one transaction: the old follower unfollows and the new one follows, with a student\'s counters and events', async () => {
    const reader = await app.user({ nickname: '读者' });
    const writer = await app.user({ nickname: '作者' });
    // Which transaction wrote each outbox row (xmin changes when the relay marks a row sent, so it cannot tell).
    await app.query(`CREATE TABLE "outbox_writers" ("id" uuid PRIMARY KEY, "tx" bigint NOT NULL)`);
    await app.query(`CREATE FUNCTION "note_outbox_writer"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN INSERT INTO "outbox_writers" VALUES (NEW."id", txid_current()); RETURN NEW; END $$`);
    await app.query(`CREATE TRIGGER "outbox_writer" AFTER INSERT ON "outbox" FOR EACH ROW EXECUTE FUNCTION "note_outbox_writer"()`);
    const follow = (await app.call<AdminFollow>('POST', '/api/admin/follows', { token: admin, body: { follower_id: fan.userId, following_id: star.userId } })).body.data;
    await app.call('POST', `/api/users/${fan.userId}/follow`, { token: reader.token });
    const before = await Promise.all([fan, star, reader, writer].map(stats));
    expect(before.map((counts) => [counts.follow_count, counts.fans_count])).toEqual([[1, 1], [0, 1], [1, 0], [0, 0]]);

    const moved = await app.call<AdminFollow>('PUT', `/api/admin/follows/${follow.id}`, { token: admin, body: { follower_id: reader.userId, following_id: String(writer.id) } });
    expect(moved.body).toMatchObject({ code: 200, message: '关注关系更新成功', data: { follower_display_id: reader.userId, follower_nickname: '读者', following_display_id: writer.userId, following_nickname: '作者' } });
    expect(moved.body.data.id).not.toBe(follow.id);
    const after = await Promise.all([fan, star, reader, writer].map(stats));
    expect(after.map((counts) => [counts.follow_count, counts.fans_count])).toEqual([[0, 1], [0, 0], [2, 0], [0, 1]]);
    expect((await app.call<{ followed: boolean }>('GET', `/api/users/${writer.userId}/follow-status`, { token: reader.token })).body.data).toMatchObject({ followed: true });

    const unfollowed = (await payloads(userUnfollowed.type)).filter((payload) => payload.follower_id === fan.id && payload.following_id === star.id);
    expect(unfollowed.at(-1)).toMatchObject({ follower_follow_count: 0, following_fans_count: 0 });
    expect((await payloads(userFollowed.type)).find((payload) => payload.follower_id === reader.id && payload.following_id === writer.id)).toMatchObject({
      follower_user_id: reader.userId,
      following_user_id: writer.userId,
      follower_follow_count: 2,
      following_fans_count: 1,
    });
    expect((await app.events(adminActed.type)).map((event) => event.payload as AdminActedPayload).find((payload) => payload.entity === 'follows' && payload.method === 'PUT')).toMatchObject({ admin_name: 'admin' });
    // The unfollow, the follow and the audit entry committed together.
    const written = await app.query<{ type: string; tx: string }>(
      `SELECT o."type", w."tx"::text AS "tx" FROM "outbox" o JOIN "outbox_writers" w ON w."id" = o."id"
       WHERE (o."type" = 'user.unfollowed' AND (o."envelope"->'payload'->>'follower_id')::bigint = $1 AND (o."envelope"->'payload'->>'following_id')::bigint = $2)
          OR (o."type" = 'user.followed' AND (o."envelope"->'payload'->>'follower_id')::bigint = $3 AND (o."envelope"->'payload'->>'following_id')::bigint = $4)
          OR (o."type" = 'admin.acted' AND o."envelope"->'payload'->>'entity' = 'follows' AND o."envelope"->'payload'->>'method' = 'PUT')`,
      [fan.id, star.id, reader.id, writer.id],
    );
    expect(written.map((row) => row.type).sort()).toEqual(['admin.acted', 'user.followed', 'user.unfollowed']);
    expect(new Set(written.map((row) => row.tx)).size).toBe(1);

    const unchanged = await app.call<AdminFollow>('PUT', `/api/admin/follows/${moved.body.data.id}`, { token: admin, body: { follower_id: reader.userId, following_id: writer.userId } });
    expect(unchanged.body).toMatchObject({ code: 200, message: '关注关系更新成功', data: { id: moved.body.data.id } });
    expect(await Promise.all([fan, star, reader, writer].map(stats))).toEqual(after);
  });

  it('refuses an edit that names no follow, an unknown user, oneself or a pair that already follows, leaving the follow as it was', async () => {
    const other = await app.user({ nickname: '旁人' });
    const follow = (await app.call<AdminFollow>('POST', '/api/admin/follows', { token: admin, body: { follower_id: other.userId, following_id: star.userId } })).body.data;
    await app.call('POST', `/api/users/${fan.userId}/follow`, { token: other.token });
    const before = await Promise.all([other, star, fan].map(stats));
    const put = (id: number, body: object) => app.call('PUT', `/api/admin/follows/${id}`, { token: admin, body });

    expect((await put(999999999, { follower_id: other.userId, following_id: fan.userId })).body).toEqual({ code: 404, message: '关注关系不存在', data: null });
    expect((await put(follow.id, { follower_id: other.userId, following_id: 'nobody_x' })).body).toEqual({ code: 404, message: '用户不存在', data: null });
    expect((await put(follow.id, { follower_id: 'nobody_x', following_id: star.userId })).body).toEqual({ code: 404, message: '用户不存在', data: null });
    expect((await put(follow.id, { follower_id: other.userId, following_id: String(other.id) })).body).toEqual({ code: 400, message: '不能关注自己', data: null });
    expect((await put(follow.id, { follower_id: other.userId, following_id: fan.userId })).body).toEqual({ code: 409, message: '关注者已经关注过该用户', data: null });
    expect((await put(follow.id, { following_id: fan.userId })).body).toEqual({ code: 400, message: '请输入关注者', data: null });
    expect((await put(follow.id, { follower_id: other.userId, following_id: ' ' })).body).toEqual({ code: 400, message: '请输入被关注者', data: null });

    expect((await app.call<Page<AdminFollow>>('GET', `/api/admin/follows?follower_display_id=${other.userId}&following_display_id=${star.userId}`, { token: admin })).body.data.data.map((row) => row.id)).toEqual([follow.id]);
    expect(await Promise.all([other, star, fan].map(stats))).toEqual(before);
  });
});
