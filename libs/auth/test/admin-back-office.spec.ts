import { adminActed, type EventDefinition, postAnnounced, postDeleted, postLiked, postUnliked, userDeleted, userFollowed, userUpdated, userVerified } from '@shiliu/contracts';
import { documentedAnswerProblems } from '@shiliu/platform/testing';
import { ADMIN_PASSWORD, AuthTestApp, signUp, type SignedUp, type Tokens } from './auth-test-app';

interface Page<T> {
  data: T[];
  pagination: { page: number; limit: number; total: number; pages: number; totalPages: number };
}
interface AuditRow {
  id: number;
  user_display_id: string;
  nickname: string;
  status: number;
  content: Record<string, string>;
  reject_reason: string | null;
  audit_time: string | null;
}

const personal = { real_name: '林小雨', id_card: '11010519491231002X', occupation: '学生', reason: '校园摄影博主' };
const official = { org_name: '某某大学摄影协会', credit_code: '91350100M000100Y43', contact_name: '陈默', contact_phone: '13812345678', reason: '社团官方账号' };

describe('admin back office: users, verification audit, sessions, administrators (auth service, PostgreSQL)', () => {
  let auth: AuthTestApp;
  let admin: string;
  let student: SignedUp;

  beforeAll(async () => {
    auth = await AuthTestApp.start();
    const answer = await auth.call<{ tokens: Tokens }>('POST', '/api/auth/admin/login', { body: { username: 'admin', password: ADMIN_PASSWORD } });
    admin = answer.body.data.tokens.access_token;
    student = await signUp(auth, { nickname: '普通同学' });
  });

  afterAll(async () => {
    await auth?.close();
  });

  const payloads = async <T>(definition: EventDefinition<T>): Promise<T[]> => (await auth.events(definition.type)).map((event) => event.payload as T);

  it.each([
    ['GET', '/api/admin/users'],
    ['POST', '/api/admin/users'],
    ['PUT', '/api/admin/users/1'],
    ['DELETE', '/api/admin/users/1'],
    ['DELETE', '/api/admin/users'],
    ['GET', '/api/admin/audit'],
    ['POST', '/api/admin/audit'],
    ['PUT', '/api/admin/audit/1'],
    ['PUT', '/api/admin/audit/1/approve'],
    ['PUT', '/api/admin/audit/1/reject'],
    ['DELETE', '/api/admin/audit/1'],
    ['DELETE', '/api/admin/audit'],
    ['GET', '/api/admin/sessions'],
    ['POST', '/api/admin/sessions'],
    ['GET', '/api/admin/test-users'],
    ['PUT', '/api/admin/sessions/00000000-0000-0000-0000-000000000000'],
    ['DELETE', '/api/admin/sessions/00000000-0000-0000-0000-000000000000'],
    ['DELETE', '/api/admin/sessions'],
    ['GET', '/api/admin/admins'],
    ['POST', '/api/admin/admins'],
    ['PUT', '/api/admin/admins/1'],
    ['DELETE', '/api/admin/admins/1'],
    ['DELETE', '/api/admin/admins'],
    ['GET', '/api/auth/admin/admins'],
    ['PUT', '/api/auth/admin/admins/1/password'],
  ])('%s %s: 401 without a token, 403 with a student token', async (method, path) => {
    const body = method === 'GET' ? undefined : {};
    expect((await auth.call(method, path, { body })).body).toEqual({ code: 401, message: '未授权访问', data: null });
    expect((await auth.call(method, path, { body, token: student.tokens.access_token })).body).toEqual({ code: 403, message: '禁止访问', data: null });
  });

  it('lists users filtered by search and product ID and sorted by a whitelisted column only', async () => {
    const a = await signUp(auth, { nickname: '筛选甲' });
    const b = await signUp(auth, { nickname: '筛选乙' });
    const searched = await auth.call<Page<{ id: number; user_id: string; nickname: string; personality_tags: object }>>('GET', '/api/admin/users?search=筛选&sortField=id&sortOrder=asc&limit=1', { token: admin });
    expect(searched.body.data.pagination).toEqual({ page: 1, limit: 1, total: 2, pages: 2, totalPages: 2 });
    expect(searched.body.data.data.map((user) => user.user_id)).toEqual([a.userId]);
    expect(searched.body.data.data[0].personality_tags).toEqual({ gender: null, zodiac_sign: null, mbti: null, education: null, major: null, interests: [] });
    const descending = await auth.call<Page<{ user_id: string }>>('GET', '/api/admin/users?search=筛选&sortField=created_at', { token: admin });
    expect(descending.body.data.data.map((user) => user.user_id)).toEqual([b.userId, a.userId]);
    const byId = await auth.call<Page<{ user_id: string }>>('GET', `/api/admin/users?user_display_id=${b.userId.toUpperCase()}`, { token: admin });
    expect(byId.body.data.data.map((user) => user.user_id)).toEqual([b.userId]);

    expect((await auth.call('GET', '/api/admin/users?sortField=password_hash', { token: admin })).body).toMatchObject({ code: 400, message: expect.stringContaining('不支持按 password_hash 排序') });
    expect((await auth.call('GET', '/api/admin/users?sortOrder=sideways', { token: admin })).status).toBe(400);
    expect((await auth.call('GET', '/api/admin/users?is_admin=1', { token: admin })).body).toMatchObject({ code: 400, message: '不支持的查询参数：is_admin' });
    expect((await auth.call('GET', '/api/admin/users?limit=101', { token: admin })).status).toBe(400);
  });

  it('drops empty query parameters and filters users by each field the table shows, text by substring', async () => {
    const found = await signUp(auth, { nickname: '字段筛选人' });
    expect((await auth.call('PUT', `/api/admin/users/${found.user.id}`, { token: admin, body: { user_id: found.userId, nickname: '字段筛选人', location: '福建厦门' } })).status).toBe(200);
    const everyEmpty = await auth.call<Page<{ user_id: string }>>('GET', '/api/admin/users?user_id=&nickname=&location=&is_active=&bio=&search=&verified=&sortField=&sortOrder=', { token: admin });
    expect([everyEmpty.status, documentedAnswerProblems('GET /api/admin/users', everyEmpty.body)]).toEqual([200, []]);
    expect(everyEmpty.body.data.pagination.total).toBeGreaterThan(1);
    const part = found.userId.slice(2, -1);
    const filtered = await auth.call<Page<{ user_id: string; location: string }>>('GET', `/api/admin/users?user_id=${part}&nickname=${encodeURIComponent('段筛选')}&location=${encodeURIComponent('厦门')}&is_active=true&unknown=`, { token: admin });
    expect([filtered.status, filtered.body.data.data.map((user) => [user.user_id, user.location])]).toEqual([200, [[found.userId, '福建厦门']]]);
    expect((await auth.call<Page<unknown>>('GET', `/api/admin/users?nickname=${encodeURIComponent('段筛选')}&is_active=false`, { token: admin })).body.data.data).toEqual([]);
    const audit = await auth.call<Page<unknown>>('GET', '/api/admin/audit?user_display_id=&nickname=&status=&type=&content=&reject_reason=', { token: admin });
    const sessions = await auth.call<Page<{ user_display_id: string }>>('GET', `/api/admin/sessions?user_display_id=${part}&user_agent=&is_active=`, { token: admin });
    const admins = await auth.call<Page<unknown>>('GET', '/api/admin/admins?username=', { token: admin });
    expect([audit.status, sessions.status, admins.status]).toEqual([200, 200, 200]);
    expect(sessions.body.data.data.map((session) => session.user_display_id)).toContain(found.userId);
  });

  it('shows and sorts by the follow and fan counts social announces, the newest count winning', async () => {
    const a = await signUp(auth, { nickname: '计数甲' });
    const b = await signUp(auth, { nickname: '计数乙' });
    const follow = (fans: number, at: string) =>
      auth.deliver(userFollowed.type, { follower_id: a.user.id, follower_user_id: a.userId, following_id: b.user.id, following_user_id: b.userId, follower_follow_count: 1, following_fans_count: fans }, new Date(at));
    await follow(3, '2026-01-02T00:00:00Z');
    await follow(2, '2026-01-01T00:00:00Z');
    const listed = await auth.call<Page<{ user_id: string; follow_count: number; fans_count: number }>>('GET', '/api/admin/users?search=计数&sortField=fans_count&sortOrder=desc', { token: admin });
    expect(listed.body.data.data.map((user) => [user.user_id, user.follow_count, user.fans_count])).toEqual([
      [b.userId, 0, 3],
      [a.userId, 1, 0],
    ]);
  });

  it('shows and sorts by the likes content announces for each user\'s notes: newest count per note, deleted notes no longer counted', async () => {
    const a = await signUp(auth, { nickname: '获赞甲' });
    const b = await signUp(auth, { nickname: '获赞乙' });
    const like = (type: string, postId: number, authorId: number, count: number, at: string) =>
      auth.deliver(type, { post_id: postId, post_author_id: authorId, user_id: student.user.id, count }, new Date(at));
    await like(postLiked.type, 9001, a.user.id, 2, '2026-01-01T00:00:00Z');
    await like(postLiked.type, 9002, a.user.id, 5, '2026-01-01T00:00:00Z');
    await like(postUnliked.type, 9002, a.user.id, 4, '2026-01-03T00:00:00Z');
    await like(postLiked.type, 9002, a.user.id, 5, '2026-01-02T00:00:00Z');
    await like(postLiked.type, 9003, b.user.id, 9, '2026-01-01T00:00:00Z');
    const likes = async () =>
      (await auth.call<Page<{ user_id: string; like_count: number }>>('GET', '/api/admin/users?search=获赞&sortField=like_count&sortOrder=desc', { token: admin })).body.data.data.map(
        (user) => [user.user_id, user.like_count],
      );
    expect(await likes()).toEqual([
      [b.userId, 9],
      [a.userId, 6],
    ]);

    await auth.deliver(postDeleted.type, { id: 9003, author_id: b.user.id, was_draft: false, like_count: 9, collect_count: 0, comment_count: 0, images: [], video_url: null, cover_url: null }, new Date('2026-01-04T00:00:00Z'));
    await like(postLiked.type, 9003, b.user.id, 10, '2026-01-05T00:00:00Z');
    const post = { id: 9004, author_id: b.user.id, author_user_id: b.userId, title: '回填', content_text: '', category_id: null, category_title: null, type: 1, tags: [], images: [], cover_url: null, video_url: null, created_at: '2026-01-01T00:00:00Z' };
    await auth.deliver(postAnnounced.type, { post, like_count: 3, collect_count: 0 }, new Date('2026-01-05T00:00:00Z'));
    expect(await likes()).toEqual([
      [a.userId, 6],
      [b.userId, 3],
    ]);
  });

  it('creates, edits and deletes a user through the same events as a student, and logs each administrator write', async () => {
    const created = await auth.call<{ id: number; user_id: string; nickname: string; mbti: string }>('POST', '/api/admin/users', {
      token: admin,
      body: { user_id: 'admin_made_1', nickname: '后台建的', password: 'secret-123', mbti: 'intj' },
    });
    expect(created.body).toMatchObject({ code: 200, message: '用户创建成功', data: { user_id: 'admin_made_1', nickname: '后台建的', mbti: 'INTJ' } });
    const id = created.body.data.id;
    expect((await auth.call('POST', '/api/admin/users', { token: admin, body: { user_id: 'admin_made_1', nickname: '重复', password: 'secret-123' } })).status).toBe(409);
    expect((await auth.call('POST', '/api/admin/users', { token: admin, body: { user_id: 'x', nickname: '短号', password: 'secret-123' } })).status).toBe(400);
    expect((await auth.call('POST', '/api/admin/users', { token: admin, body: { password: '000000' } })).body).toEqual({ code: 400, message: '请输入小石榴号', data: null });
    expect((await auth.call('POST', '/api/admin/users', { token: admin, body: { user_id: 'no_nickname', password: '000000' } })).body).toEqual({ code: 400, message: '请输入昵称', data: null });

    const edited = await auth.call<{ nickname: string; verified: number; user_id: string }>('PUT', `/api/admin/users/${id}`, { token: admin, body: { nickname: '改过名', verified: 2, user_id: 'admin_made_2' } });
    expect(edited.body.data).toMatchObject({ nickname: '改过名', verified: 2, user_id: 'admin_made_2' });
    expect((await payloads(userVerified)).some((event) => event.id === id && event.verified === 2)).toBe(true);
    expect((await payloads(userUpdated)).some((event) => event.user.id === id && event.user.user_id === 'admin_made_2')).toBe(true);

    expect((await auth.call('DELETE', `/api/admin/users/${id}`, { token: admin })).body).toEqual({ code: 200, message: '删除成功', data: null });
    expect((await payloads(userDeleted)).some((event) => event.id === id)).toBe(true);
    expect((await auth.call('DELETE', `/api/admin/users/${id}`, { token: admin })).status).toBe(404);

    const logged = (await payloads(adminActed)).filter((event) => event.entity === 'users' && event.target_ids.includes(id));
    expect(logged.map((event) => [event.method, event.admin_name, event.service])).toEqual([
      ['PUT', 'admin', expect.stringMatching(/^auth/)],
      ['DELETE', 'admin', expect.stringMatching(/^auth/)],
    ]);
  });

  it('switches an account off: signed out at once, sign-in refused with a 403, and back on again', async () => {
    const someone = await signUp(auth);
    const off = await auth.call<{ is_active: boolean }>('PUT', `/api/admin/users/${someone.user.id}`, { token: admin, body: { is_active: 0 } });
    expect(off.body.data.is_active).toBe(false);
    expect((await auth.call('GET', '/api/auth/me', { token: someone.tokens.access_token })).status).toBe(401);
    expect((await auth.call('POST', '/api/auth/refresh', { body: { refresh_token: someone.tokens.refresh_token } })).status).toBe(401);
    expect((await auth.call('POST', '/api/auth/login', { body: { user_id: someone.userId, password: someone.password } })).body).toEqual({ code: 403, message: '账号已被禁用，请联系管理员', data: null });
    const inactive = await auth.call<Page<{ user_id: string }>>('GET', `/api/admin/users?is_active=false&user_display_id=${someone.userId}`, { token: admin });
    expect(inactive.body.data.data.map((user) => user.user_id)).toEqual([someone.userId]);
    await auth.call('PUT', `/api/admin/users/${someone.user.id}`, { token: admin, body: { is_active: true } });
    expect((await auth.call('POST', '/api/auth/login', { body: { user_id: someone.userId, password: someone.password } })).status).toBe(200);
  });

  it('bulk-deletes users, skipping ids that are gone, and asks for a selection', async () => {
    const a = await signUp(auth);
    const b = await signUp(auth);
    const answer = await auth.call('DELETE', '/api/admin/users', { token: admin, body: { ids: [a.user.id, b.user.id, 999999999] } });
    expect(answer.body).toEqual({ code: 200, message: '批量删除成功', data: { deletedCount: 2 } });
    expect((await auth.call('GET', `/api/users/${a.userId}`)).status).toBe(404);
    expect((await auth.call('DELETE', '/api/admin/users', { token: admin, body: { ids: [] } })).body).toMatchObject({ code: 400, message: '请选择要删除的项目' });
  });

  it('approves one application and rejects another with a reason, masking personal numbers in the list', async () => {
    const applicant = await signUp(auth, { nickname: '申请者甲' });
    const other = await signUp(auth, { nickname: '申请者乙' });
    await auth.call('POST', '/api/users/verification', { token: applicant.tokens.access_token, body: { type: 2, content: personal } });
    await auth.call('POST', '/api/users/verification', { token: other.tokens.access_token, body: { type: 1, content: official } });

    const listed = await auth.call<Page<AuditRow>>('GET', `/api/admin/audit?user_display_id=${applicant.userId}&status=0`, { token: admin });
    expect(listed.body.data.data).toEqual([expect.objectContaining({ user_display_id: applicant.userId, nickname: '申请者甲', status: 0, content: expect.objectContaining({ id_card: '110105********002X' }) })]);
    expect(listed.text).not.toContain('19491231');
    const byName = await auth.call<Page<AuditRow>>('GET', '/api/admin/audit?real_name=陈默&type=1', { token: admin });
    expect(byName.body.data.data.map((row) => row.user_display_id)).toContain(other.userId);
    expect(byName.text).not.toContain('13812345678');
    expect(byName.text).toContain('138****5678');

    const first = listed.body.data.data[0].id;
    const second = byName.body.data.data.find((row) => row.user_display_id === other.userId)!.id;
    const approved = await auth.call<AuditRow>('PUT', `/api/admin/audit/${first}/approve`, { token: admin });
    expect(approved.body).toMatchObject({ code: 200, message: '审核通过', data: { status: 1, audit_time: expect.any(String) } });
    expect((await auth.call<{ verified: number }>('GET', `/api/users/${applicant.userId}`)).body.data.verified).toBe(2);
    expect((await payloads(userVerified)).some((event) => event.user_id === applicant.userId && event.verified === 2)).toBe(true);

    const rejected = await auth.call<AuditRow>('PUT', `/api/admin/audit/${second}/reject`, { token: admin, body: { reject_reason: '材料不全' } });
    expect(rejected.body).toMatchObject({ code: 200, message: '已拒绝', data: { status: 2, reject_reason: '材料不全' } });
    expect((await auth.call<{ verified: number }>('GET', `/api/users/${other.userId}`)).body.data.verified).toBe(0);
    expect((await auth.call('PUT', '/api/admin/audit/999999999/approve', { token: admin })).status).toBe(404);
  });

  it('answers the administrator to GET /auth/me with an administrator\'s token, as the spec\'s admin pages send it', async () => {
    const me = await auth.call<{ id: number; username: string }>('GET', '/api/auth/me', { token: admin });
    expect([me.status, me.body.data]).toEqual([200, expect.objectContaining({ username: 'admin', id: expect.any(Number) })]);
    expect(me.body.data).not.toHaveProperty('password_hash');
    expect(documentedAnswerProblems('GET /api/auth/me', me.body)).toEqual([]);
    expect((await auth.call('GET', '/api/auth/admin/me', { token: admin })).body.data).toEqual(me.body.data);
    expect((await auth.call<{ user_id: string }>('GET', '/api/auth/me', { token: student.tokens.access_token })).body.data).toMatchObject({ user_id: student.userId });
  });

  it('rejects an application sent without a body, as the spec\'s screen sends it, keeping the reason empty', async () => {
    const applicant = await signUp(auth, { nickname: '无理由' });
    await auth.call('POST', '/api/users/verification', { token: applicant.tokens.access_token, body: { type: 2, content: personal } });
    const [row] = (await auth.call<Page<AuditRow>>('GET', `/api/admin/audit?user_display_id=${applicant.userId}`, { token: admin })).body.data.data;
    const rejected = await auth.call<AuditRow>('PUT', `/api/admin/audit/${row.id}/reject`, { token: admin });
    expect([rejected.status, rejected.body.message, rejected.body.data]).toEqual([200, '已拒绝', expect.objectContaining({ id: row.id, status: 2, reject_reason: null, audit_time: expect.any(String) })]);
    expect(documentedAnswerProblems('PUT /api/admin/audit/{id}/reject', rejected.body)).toEqual([]);
    const listed = (await auth.call<Page<AuditRow>>('GET', `/api/admin/audit?user_display_id=${applicant.userId}`, { token: admin })).body.data.data;
    expect(listed).toEqual([expect.objectContaining({ id: row.id, status: 2, reject_reason: null })]);
  });

  it('takes a badge back when its approved application is set pending or deleted', async () => {
    const applicant = await signUp(auth);
    const filed = await auth.call<AuditRow>('POST', '/api/admin/audit', { token: admin, body: { user_id: applicant.userId, type: 2, content: personal } });
    expect(filed.body).toMatchObject({ code: 200, data: { user_display_id: applicant.userId, status: 0 } });
    const id = filed.body.data.id;
    await auth.call('PUT', `/api/admin/audit/${id}`, { token: admin, body: { status: 1 } });
    expect((await auth.call<{ verified: number }>('GET', `/api/users/${applicant.userId}`)).body.data.verified).toBe(2);
    expect((await auth.call('PUT', `/api/admin/audit/${id}`, { token: admin, body: { status: 2 } })).body).toMatchObject({ code: 200, data: { status: 2, reject_reason: null } });
    expect((await auth.call<{ verified: number }>('GET', `/api/users/${applicant.userId}`)).body.data.verified).toBe(0);
    await auth.call('PUT', `/api/admin/audit/${id}/approve`, { token: admin });
    expect((await auth.call('PUT', `/api/admin/audit/${id}`, { token: admin, body: { status: 0 } })).body).toMatchObject({ code: 200, data: { status: 0, audit_time: null } });
    expect((await auth.call<{ verified: number }>('GET', `/api/users/${applicant.userId}`)).body.data.verified).toBe(0);
    expect((await payloads(userUpdated)).some((event) => event.user.user_id === applicant.userId && event.user.verified === 0)).toBe(true);

    await auth.call('PUT', `/api/admin/audit/${id}/approve`, { token: admin });
    expect((await auth.call('DELETE', `/api/admin/audit/${id}`, { token: admin })).body).toEqual({ code: 200, message: '删除成功', data: null });
    expect((await auth.call<{ verified: number }>('GET', `/api/users/${applicant.userId}`)).body.data.verified).toBe(0);
    expect((await auth.call('DELETE', '/api/admin/audit', { token: admin, body: { ids: [id] } })).body).toEqual({ code: 200, message: '批量删除成功', data: { deletedCount: 0 } });
  });

  it('lists students\' sessions and ends one, which refuses its token', async () => {
    const someone = await signUp(auth);
    const sessions = await auth.call<Page<{ id: string; user_display_id: string; is_active: boolean }>>('GET', `/api/admin/sessions?user_display_id=${someone.userId}&is_active=true`, { token: admin });
    expect(sessions.body.data.data).toEqual([expect.objectContaining({ user_display_id: someone.userId, is_active: true })]);
    const [session] = sessions.body.data.data;
    expect((await auth.call('PUT', `/api/admin/sessions/${session.id}`, { token: admin, body: { is_active: true } })).status).toBe(400);
    expect((await auth.call('PUT', `/api/admin/sessions/${session.id}`, { token: admin, body: { is_active: false } })).body).toEqual({ code: 200, message: '会话已失效', data: null });
    expect((await auth.call('GET', '/api/auth/me', { token: someone.tokens.access_token })).status).toBe(401);
    const ended = await auth.call<Page<{ is_active: boolean }>>('GET', `/api/admin/sessions?user_display_id=${someone.userId}`, { token: admin });
    expect(ended.body.data.data.map((row) => row.is_active)).toEqual([false]);
    expect((await auth.call('DELETE', '/api/admin/sessions', { token: admin, body: { ids: ['nope'] } })).status).toBe(400);
    expect((await auth.call('DELETE', '/api/admin/sessions/00000000-0000-0000-0000-000000000000', { token: admin })).status).toBe(404);
  });

  it('opens a session for a user as their sign-in would: listed, usable, ended like any other, and logged', async () => {
    const someone = await signUp(auth, { nickname: '代开会话' });
    const opened = await auth.call<{ session: { id: string; user_id: number; user_display_id: string; user_agent: string; is_active: boolean }; tokens: Tokens }>('POST', '/api/admin/sessions', {
      token: admin,
      body: { user_id: someone.userId.toUpperCase(), user_agent: '测试设备' },
    });
    expect(opened.body).toMatchObject({ code: 200, message: '会话创建成功', data: { session: { user_id: someone.user.id, user_display_id: someone.userId, user_agent: '测试设备', is_active: true } } });
    const { session, tokens } = opened.body.data;
    expect((await auth.call<{ user_id: string }>('GET', '/api/auth/me', { token: tokens.access_token })).body.data.user_id).toBe(someone.userId);
    const listed = await auth.call<Page<{ id: string }>>('GET', `/api/admin/sessions?user_display_id=${someone.userId}&is_active=true`, { token: admin });
    expect(listed.body.data.data.map((row) => row.id)).toContain(session.id);
    expect((await auth.call<{ session: { user_agent: string } }>('POST', '/api/admin/sessions', { token: admin, body: { user_id: String(someone.user.id) } })).body.data.session.user_agent).toBe('管理后台创建');

    expect((await auth.call('DELETE', `/api/admin/sessions/${session.id}`, { token: admin })).status).toBe(200);
    expect((await auth.call('GET', '/api/auth/me', { token: tokens.access_token })).status).toBe(401);
    expect((await payloads(adminActed)).some((event) => event.entity === 'sessions' && event.method === 'POST')).toBe(true);

    expect((await auth.call('POST', '/api/admin/sessions', { token: admin, body: {} })).body).toEqual({ code: 400, message: '请输入用户的小石榴号', data: null });
    expect((await auth.call('POST', '/api/admin/sessions', { token: admin, body: { user_id: 'nobody_here' } })).body).toEqual({ code: 404, message: '用户不存在', data: null });
    expect((await auth.call('PUT', `/api/admin/users/${someone.user.id}`, { token: admin, body: { is_active: false } })).status).toBe(200);
    expect((await auth.call('POST', '/api/admin/sessions', { token: admin, body: { user_id: someone.userId } })).body).toEqual({ code: 403, message: '账号已被禁用，请联系管理员', data: null });
  });

  it('lists the demo accounts that exist as test users', async () => {
    expect((await auth.call<unknown[]>('GET', '/api/admin/test-users', { token: admin })).body.data).toEqual([]);
    await auth.call('POST', '/api/admin/users', { token: admin, body: { user_id: 'chen_mo', nickname: '陈默', password: 'secret-123' } });
    const listed = await auth.call<{ user_id: string; nickname: string; is_active: boolean }[]>('GET', '/api/admin/test-users', { token: admin });
    expect(listed.body).toMatchObject({ code: 200, data: [{ user_id: 'chen_mo', nickname: '陈默', is_active: true }] });
  });

  it('manages administrator accounts as a table and never deletes the one signed in', async () => {
    const created = await auth.call<{ id: number; username: string }>('POST', '/api/admin/admins', { token: admin, body: { username: 'second_admin', password: 'another-1' } });
    expect(created.body).toMatchObject({ code: 200, data: { username: 'second_admin' } });
    const listed = await auth.call<Page<{ username: string }>>('GET', '/api/admin/admins?sortField=username&sortOrder=asc', { token: admin });
    expect(listed.body.data.data.map((row) => row.username)).toEqual(['admin', 'second_admin']);
    expect(listed.text).not.toContain('password');
    expect((await auth.call('PUT', `/api/admin/admins/${created.body.data.id}`, { token: admin, body: { password: 'changed-22' } })).status).toBe(200);
    expect((await auth.call('POST', '/api/auth/admin/login', { body: { username: 'second_admin', password: 'changed-22' } })).status).toBe(200);
    const me = await auth.call<{ id: number }>('GET', '/api/auth/admin/me', { token: admin });
    expect((await auth.call('DELETE', '/api/admin/admins', { token: admin, body: { ids: [me.body.data.id] } })).body).toMatchObject({ code: 400, message: '不能删除当前登录的管理员' });
    expect((await auth.call('DELETE', '/api/admin/admins', { token: admin, body: { ids: [created.body.data.id] } })).body).toEqual({ code: 200, message: '批量删除成功', data: { deletedCount: 1 } });
  });
});
