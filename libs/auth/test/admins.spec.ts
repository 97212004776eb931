import { AuthTestApp, ADMIN_PASSWORD, signUp, type Tokens } from './auth-test-app';

interface AdminSignIn {
  admin: { id: number; username: string };
  tokens: Tokens;
}

describe('administrators (auth service, PostgreSQL)', () => {
  let auth: AuthTestApp;
  let token: string;

  beforeAll(async () => {
    auth = await AuthTestApp.start();
    const answer = await auth.call<AdminSignIn>('POST', '/api/auth/admin/login', { body: { username: 'admin', password: ADMIN_PASSWORD } });
    token = answer.body.data.tokens.access_token;
  });

  afterAll(async () => {
    await auth?.close();
  });

  it('creates the first administrator from ADMIN_PASSWORD, who signs in', async () => {
    const answer = await auth.call<AdminSignIn>('POST', '/api/auth/admin/login', { body: { username: 'admin', password: ADMIN_PASSWORD } });
    expect(answer.status).toBe(200);
    expect(answer.body.data.admin).toMatchObject({ username: 'admin' });
    expect(answer.body.data.tokens.expires_in).toBe(3600);
    const me = await auth.call('GET', '/api/auth/admin/me', { token: answer.body.data.tokens.access_token });
    expect(me.body.data).toMatchObject({ username: 'admin' });
  });

  it.each([
    [{ username: 'admin', password: 'wrong-password' }, 401, '登录失败，请检查用户名和密码'],
    [{ username: 'nobody', password: 'wrong-password' }, 401, '登录失败，请检查用户名和密码'],
    [{ username: 'a', password: 'whatever' }, 400, '用户名至少2个字符'],
    [{ username: 'admin', password: '12345' }, 400, '密码至少需要6位'],
  ])('refuses %j', async (body, status, message) => {
    expect((await auth.call('POST', '/api/auth/admin/login', { body })).body).toEqual({ code: status, message, data: null });
  });

  it('keeps the audiences apart: admin tokens on user calls and user tokens on admin calls are refused (403 on account management), but /auth/me answers either', async () => {
    const student = await signUp(auth);
    expect((await auth.call('GET', '/api/auth/admin/me', { token: student.tokens.access_token })).status).toBe(401);
    expect((await auth.call('GET', '/api/auth/admin/admins', { token: student.tokens.access_token })).status).toBe(403);
    // The spec's admin pages send the admin token on every call, /auth/me included.
    expect((await auth.call('GET', '/api/auth/me', { token })).body).toMatchObject({ code: 200, data: { username: 'admin' } });
    expect((await auth.call('PUT', `/api/users/${student.userId}`, { token, body: { nickname: '管理员改的' } })).status).toBe(401);
  });

  it('manages administrator accounts without ever returning a hash', async () => {
    const created = await auth.call<{ id: number; username: string }>('POST', '/api/auth/admin/admins', { token, body: { username: 'auditor_1', password: 'auditor-pass' } });
    expect(created.body.message).toBe('管理员创建成功');
    const id = created.body.data.id;
    const list = await auth.call<{ username: string }[]>('GET', '/api/auth/admin/admins', { token });
    expect(list.body.data.map((a) => a.username)).toEqual(['admin', 'auditor_1']);
    expect(list.text).not.toMatch(/argon2|password|hash/i);
    expect((await auth.call('POST', '/api/auth/admin/admins', { token, body: { username: 'AUDITOR_1', password: 'another-pass' } })).status).toBe(409);

    expect((await auth.call('PUT', `/api/auth/admin/admins/${id}/password`, { token, body: { password: 'changed-pass' } })).status).toBe(200);
    expect((await auth.call('POST', '/api/auth/admin/login', { body: { username: 'auditor_1', password: 'auditor-pass' } })).status).toBe(401);
    expect((await auth.call('POST', '/api/auth/admin/login', { body: { username: 'auditor_1', password: 'changed-pass' } })).status).toBe(200);

    expect((await auth.call('DELETE', `/api/auth/admin/admins/${id}`, { token })).status).toBe(200);
    expect((await auth.call('POST', '/api/auth/admin/login', { body: { username: 'auditor_1', password: 'changed-pass' } })).status).toBe(401);
    expect((await auth.call('DELETE', '/api/auth/admin/admins/999999', { token })).status).toBe(404);
  });

  it('never deletes the signed-in administrator or the last one', async () => {
    const [{ id }] = await auth.service.dataSource.query(`SELECT "id" FROM "admins" WHERE "username" = 'admin'`);
    expect((await auth.call('DELETE', `/api/auth/admin/admins/${id}`, { token })).body).toEqual({ code: 400, message: '不能删除当前登录的管理员', data: null });
  });

  it('refreshes and logs out administrator sessions', async () => {
    const signIn = await auth.call<AdminSignIn>('POST', '/api/auth/admin/login', { body: { username: 'admin', password: ADMIN_PASSWORD } });
    const refreshed = await auth.call<{ tokens: Tokens }>('POST', '/api/auth/admin/refresh', { body: { refresh_token: signIn.body.data.tokens.refresh_token } });
    expect(refreshed.status).toBe(200);
    expect((await auth.call('POST', '/api/auth/refresh', { body: { refresh_token: refreshed.body.data.tokens.refresh_token } })).status).toBe(401);
    expect((await auth.call('POST', '/api/auth/admin/logout', { token: refreshed.body.data.tokens.access_token })).status).toBe(200);
    expect((await auth.call('POST', '/api/auth/admin/refresh', { body: { refresh_token: refreshed.body.data.tokens.refresh_token } })).status).toBe(401);
  });

  it('cannot be locked out by anyone: ten wrong passwords from anywhere leave the administrator a way in', async () => {
    for (let i = 0; i < 10; i++) {
      const wrong = await auth.call('POST', '/api/auth/admin/login', { body: { username: 'admin', password: 'wrong-password', ...(await auth.captcha()) } });
      expect(wrong.status).toBe(401);
    }
    const signIn = await auth.call('POST', '/api/auth/admin/login', { body: { username: 'admin', password: ADMIN_PASSWORD, ...(await auth.captcha()) } });
    expect(signIn.status).toBe(200);
  });
});
