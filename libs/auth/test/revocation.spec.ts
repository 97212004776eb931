import { Redis } from 'ioredis';
import { createLogger, RedisRevocationList } from '@shiliu/platform';
import { requireEnv, waitFor } from '@shiliu/platform/testing';
import { SessionsService } from '../src/sessions/sessions.service';
import { ADMIN_PASSWORD, AuthTestApp, signUp, type Tokens } from './auth-test-app';

/**
 * A revoked session's access token stops working at once, on auth's own calls and (through the revocation list
 * every service holds) everywhere else, without waiting for the token to expire: in both run modes.
 */
describe.each([
  ['embedded (in-process list)', false],
  ['distributed (Redis list)', true],
])('session revocation, %s', (_mode, withRedis) => {
  let redis: Redis | null = null;
  let auth: AuthTestApp;

  beforeAll(async () => {
    redis = withRedis ? new Redis(requireEnv('REDIS_URL')) : null;
    auth = await AuthTestApp.start({ redis });
  });

  afterAll(async () => {
    await auth?.close();
    redis?.disconnect();
  });

  const sessionOf = (token: string): string => (JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as { sid: string }).sid;
  const rename = (userId: string, token: string) => auth.call('PUT', `/api/users/${userId}`, { token, body: { nickname: '改个名字' } });
  const signIn = async (userId: string, password: string) =>
    (await auth.call<{ tokens: Tokens }>('POST', '/api/auth/login', { body: { user_id: userId, password } })).body.data.tokens;

  it('ends the token at logout', async () => {
    const student = await signUp(auth);
    expect((await rename(student.userId, student.tokens.access_token)).status).toBe(200);
    expect((await auth.call('POST', '/api/auth/logout', { token: student.tokens.access_token })).status).toBe(200);
    expect((await rename(student.userId, student.tokens.access_token)).body).toEqual({ code: 401, message: '未授权访问', data: null });
    expect((await auth.call('DELETE', `/api/users/${student.userId}`, { token: student.tokens.access_token })).status).toBe(401);
  });

  it('ends the token when a spent refresh token comes back', async () => {
    const student = await signUp(auth);
    expect((await auth.call('POST', '/api/auth/refresh', { body: { refresh_token: student.tokens.refresh_token } })).status).toBe(200);
    expect((await auth.call('POST', '/api/auth/refresh', { body: { refresh_token: student.tokens.refresh_token } })).status).toBe(401);
    expect((await rename(student.userId, student.tokens.access_token)).status).toBe(401);
  });

  it('ends the other devices’ tokens at a password change and keeps the one that made it', async () => {
    const student = await signUp(auth);
    const other = await signIn(student.userId, student.password);
    const changed = await auth.call('PUT', `/api/users/${student.userId}/password`, {
      token: student.tokens.access_token,
      body: { currentPassword: student.password, newPassword: 'another-456' },
    });
    expect(changed.status).toBe(200);
    expect((await rename(student.userId, other.access_token)).status).toBe(401);
    expect((await rename(student.userId, student.tokens.access_token)).status).toBe(200);
  });

  it('ends every token of a deleted account', async () => {
    const student = await signUp(auth);
    const other = await signIn(student.userId, student.password);
    expect((await auth.call('DELETE', `/api/users/${student.userId}`, { token: student.tokens.access_token })).status).toBe(200);
    expect(auth.revocations.isRevoked(sessionOf(other.access_token))).toBe(true);
    expect((await auth.call('GET', '/api/users/verification/status', { token: other.access_token })).status).toBe(401);
  });

  it('ends a deleted administrator’s token, which then cannot create an administrator', async () => {
    const root = (await auth.call<{ tokens: Tokens }>('POST', '/api/auth/admin/login', { body: { username: 'admin', password: ADMIN_PASSWORD } })).body.data.tokens;
    const username = `gone_${Date.now().toString(36)}`;
    const created = await auth.call<{ id: string }>('POST', '/api/auth/admin/admins', { token: root.access_token, body: { username, password: 'gone-pass-1' } });
    expect(created.status).toBe(200);
    const gone = (await auth.call<{ tokens: Tokens }>('POST', '/api/auth/admin/login', { body: { username, password: 'gone-pass-1' } })).body.data.tokens;
    expect((await auth.call('DELETE', `/api/auth/admin/admins/${created.body.data.id}`, { token: root.access_token })).status).toBe(200);
    const attempt = await auth.call('POST', '/api/auth/admin/admins', { token: gone.access_token, body: { username: `${username}x`, password: 'ghost-pass-1' } });
    expect(attempt.status).toBe(401);
  });

  it('reaches a process that started before the revocation and one that starts after it', async () => {
    if (!redis) {
      // Embedded: the one list is the process's own; a restart rebuilds it from the revoked sessions in the database.
      const student = await signUp(auth);
      await auth.call('POST', '/api/auth/logout', { token: student.tokens.access_token });
      await auth.revocations.close();
      expect(auth.revocations.isRevoked(sessionOf(student.tokens.access_token))).toBe(false);
      await auth.service.app.get(SessionsService).onApplicationBootstrap();
      expect(auth.revocations.isRevoked(sessionOf(student.tokens.access_token))).toBe(true);
      return;
    }
    const logger = createLogger('test', 'silent');
    const early = new RedisRevocationList(redis, logger);
    await early.whenReady();
    const student = await signUp(auth);
    const sessionId = sessionOf(student.tokens.access_token);
    expect(early.isRevoked(sessionId)).toBe(false);
    await auth.call('POST', '/api/auth/logout', { token: student.tokens.access_token });
    await waitFor('the revocation to reach the other process', async () => early.isRevoked(sessionId), 5000, 20);
    const late = new RedisRevocationList(redis, logger);
    await late.whenReady();
    expect(late.isRevoked(sessionId)).toBe(true);
    await early.close();
    await late.close();
  });
});
