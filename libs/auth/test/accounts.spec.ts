import { Redis } from 'ioredis';
import { generateTokenKeyPair } from '@shiliu/platform';
import { isLoopback, requireEnv } from '@shiliu/platform/testing';
import { importPKCS8, SignJWT } from 'jose';
import type { PublicUser } from '../src/users/public-user';
import { AuthTestApp, CAPTCHA_ANSWER, randomIp, signUp, type Tokens, uniqueUserId } from './auth-test-app';

/** Registration, captcha, sign-in, refresh rotation, logout and token checks, with captchas and limits in Redis. */
describe('accounts (auth service, PostgreSQL + Redis)', () => {
  let redis: Redis;
  let auth: AuthTestApp;
  // The test app trusts its loopback callers as a deployed service trusts its proxy; one test turns that off.
  let trustLoopback = true;

  beforeAll(async () => {
    // Small limits, so the tests reach them; the defaults (auth.config.ts) fit a campus behind one NAT address.
    Object.assign(process.env, { AUTH_LOGIN_PER_IP_PER_MINUTE: '30', AUTH_CAPTCHA_PER_IP_PER_MINUTE: '30', AUTH_REGISTER_PER_IP_PER_HOUR: '10' });
    redis = new Redis(requireEnv('REDIS_URL'));
    auth = await AuthTestApp.start({ redis, trustProxy: (address) => trustLoopback && isLoopback(address) });
  });

  afterAll(async () => {
    await auth?.close();
    redis?.disconnect();
  });

  const captcha = async () => (await auth.call<{ captchaId: string; captchaSvg: string }>('GET', '/api/auth/captcha')).body.data;
  const register = (body: Record<string, unknown>, ip?: string) => auth.call<{ tokens: Tokens; user: PublicUser }>('POST', '/api/auth/register', { body, ip });
  const outboxTypes = async (): Promise<string[]> => (await auth.service.dataSource.query(`SELECT "type" FROM "outbox" ORDER BY "seq"`)).map((r: { type: string }) => r.type);

  describe('successful', () => {
    it('publishes an OpenAPI document whose request schemas carry the validation rules', async () => {
      const document = (await (await fetch(`${await auth.service.app.getUrl()}/openapi.json`)).json()) as {
        paths: Record<string, { post?: { requestBody?: { content: Record<string, { schema: { $ref: string } }> } } }>;
        components: { schemas: Record<string, { properties?: Record<string, { pattern?: string; maxLength?: number }> }> };
      };
      expect(document.paths['/api/auth/register'].post?.requestBody?.content['application/json'].schema.$ref).toBe('#/components/schemas/RegisterDto');
      const register = document.components.schemas.RegisterDto.properties!;
      expect(register.user_id.pattern).toBe('^[A-Za-z0-9_]{3,15}$');
      expect(register.password.maxLength).toBe(20);
    });

    it('hands out a four-character SVG captcha', async () => {
      const { captchaId, captchaSvg } = await captcha();
      expect(captchaId).toMatch(/^[0-9a-f-]{36}$/);
      expect(captchaSvg).toMatch(/^<svg[\s\S]*<\/svg>$/);
    });

    it('registers a student with the defaults, a location from the address, signs them in and announces them', async () => {
      const userId = uniqueUserId('New');
      const { captchaId } = await captcha();
      const answer = await register({ user_id: userId, nickname: '新同学', password: 'secret-123', captchaId, captchaText: CAPTCHA_ANSWER.toUpperCase() }, '202.120.2.101');
      expect(answer.status).toBe(200);
      expect(answer.body.message).toBe('注册成功');
      const { tokens, user } = answer.body.data;
      expect(tokens).toEqual({ access_token: expect.any(String), refresh_token: expect.any(String), expires_in: 3600 });
      expect(user).toMatchObject({ user_id: userId, nickname: '新同学', bio: '用户没有任何简介', location: '上海', verified: 0, avatar: '/default-avatar.svg', interests: [] });
      expect(await outboxTypes()).toContain('user.registered');
      const me = await auth.call<PublicUser>('GET', '/api/auth/me', { token: tokens.access_token });
      expect(me.body.data.user_id).toBe(userId);
    });

    it('believes X-Forwarded-For only from the configured proxy', async () => {
      trustLoopback = false;
      try {
        const { user } = await signUp(auth, { ip: '202.120.2.101' });
        expect(user.location).toBe('未知');
      } finally {
        trustLoopback = true;
      }
    });

    it('gives 未知 as the location of a private address', async () => {
      const { user } = await signUp(auth, { ip: '192.168.1.20' });
      expect(user.location).toBe('未知');
    });

    it('says whether a product ID is free, case-insensitively, and never offers a reserved word', async () => {
      const { userId } = await signUp(auth);
      const check = async (id: string) => (await auth.call<{ isUnique: boolean }>('GET', `/api/auth/check-user-id?user_id=${encodeURIComponent(id)}`)).body.data.isUnique;
      expect(await check(uniqueUserId())).toBe(true);
      expect(await check(userId)).toBe(false);
      expect(await check(userId.toUpperCase())).toBe(false);
      expect(await check('search')).toBe(false);
      expect(await check('Suggestions')).toBe(false);
      expect(await check('a!')).toBe(false);
    });

    it('signs in with the product ID and password, allowing several sessions at once', async () => {
      const { userId, password } = await signUp(auth);
      const phone = await auth.call<{ tokens: Tokens; user: PublicUser }>('POST', '/api/auth/login', { body: { user_id: userId, password } });
      const laptop = await auth.call<{ tokens: Tokens; user: PublicUser }>('POST', '/api/auth/login', { body: { user_id: userId, password } });
      expect(phone.status).toBe(200);
      expect(phone.body.data.user.user_id).toBe(userId);
      for (const session of [phone, laptop]) expect((await auth.call('GET', '/api/auth/me', { token: session.body.data.tokens.access_token })).status).toBe(200);
    });

    it('rotates the refresh token on every use', async () => {
      const { tokens } = await signUp(auth);
      const first = await auth.call<{ tokens: Tokens }>('POST', '/api/auth/refresh', { body: { refresh_token: tokens.refresh_token } });
      expect(first.status).toBe(200);
      expect(first.body.data.tokens.refresh_token).not.toBe(tokens.refresh_token);
      const second = await auth.call<{ tokens: Tokens }>('POST', '/api/auth/refresh', { body: { refresh_token: first.body.data.tokens.refresh_token } });
      expect(second.status).toBe(200);
      expect((await auth.call('GET', '/api/auth/me', { token: second.body.data.tokens.access_token })).status).toBe(200);
    });

    it('logs out one session and leaves the others', async () => {
      const { userId, password, tokens } = await signUp(auth);
      const other = await auth.call<{ tokens: Tokens }>('POST', '/api/auth/login', { body: { user_id: userId, password } });
      expect((await auth.call('POST', '/api/auth/logout', { token: tokens.access_token })).status).toBe(200);
      expect((await auth.call('GET', '/api/auth/me', { token: tokens.access_token })).status).toBe(401);
      expect((await auth.call('POST', '/api/auth/refresh', { body: { refresh_token: tokens.refresh_token } })).status).toBe(401);
      expect((await auth.call('GET', '/api/auth/me', { token: other.body.data.tokens.access_token })).status).toBe(200);
    });
  });

  describe('failing', () => {
    it('refuses a wrong captcha, and the captcha is then used up', async () => {
      const { captchaId } = await captcha();
      const body = { user_id: uniqueUserId(), nickname: '同学', password: 'secret-123', captchaId };
      const wrong = await register({ ...body, captchaText: 'zzzz' });
      expect(wrong.status).toBe(400);
      expect(wrong.body).toEqual({ code: 400, message: '验证码错误或已过期，请重新获取', data: null });
      expect((await register({ ...body, captchaText: CAPTCHA_ANSWER })).status).toBe(400);
    });

    it('refuses a captcha used twice', async () => {
      const { captchaId } = await captcha();
      expect((await register({ user_id: uniqueUserId(), nickname: '同学', password: 'secret-123', captchaId, captchaText: CAPTCHA_ANSWER })).status).toBe(200);
      const again = await register({ user_id: uniqueUserId(), nickname: '同学', password: 'secret-123', captchaId, captchaText: CAPTCHA_ANSWER });
      expect(again.body).toEqual({ code: 400, message: '验证码错误或已过期，请重新获取', data: null });
    });

    it('refuses an expired captcha', async () => {
      const { captchaId } = await captcha();
      expect(await redis.ttl(`shiliu:auth:captcha:${captchaId}`)).toBeGreaterThan(290);
      await redis.pexpire(`shiliu:auth:captcha:${captchaId}`, 1);
      await new Promise((resolve) => setTimeout(resolve, 20));
      const answer = await register({ user_id: uniqueUserId(), nickname: '同学', password: 'secret-123', captchaId, captchaText: CAPTCHA_ANSWER });
      expect(answer.status).toBe(400);
    });

    it('refuses a product ID that exists, in any case, with 409', async () => {
      const { userId } = await signUp(auth);
      const { captchaId } = await captcha();
      const answer = await register({ user_id: userId.toUpperCase(), nickname: '同学', password: 'secret-123', captchaId, captchaText: CAPTCHA_ANSWER });
      expect(answer.status).toBe(409);
      expect(answer.body.message).toBe('小石榴号已存在');
    });

    it.each([
      [{ user_id: 'ab' }, '小石榴号只能包含字母、数字和下划线，长度为3-15位'],
      [{ user_id: 'has space' }, '小石榴号只能包含字母、数字和下划线，长度为3-15位'],
      [{ user_id: 'a'.repeat(16) }, '小石榴号只能包含字母、数字和下划线，长度为3-15位'],
      [{ user_id: '' }, '请输入小石榴号'],
      [{ nickname: '' }, '请输入昵称'],
      [{ nickname: '一' }, '昵称长度为2-10个字符'],
      [{ nickname: '一二三四五六七八九十一' }, '昵称长度为2-10个字符'],
      [{ password: '12345' }, '密码至少需要6位'],
      [{ password: 'x'.repeat(21) }, '密码最多20位'],
      [{ captchaText: '' }, '请输入验证码'],
    ])('refuses %j with 400 and creates nothing', async (change, message) => {
      const { captchaId } = await captcha();
      const userId = uniqueUserId();
      const answer = await register({ user_id: userId, nickname: '同学', password: 'secret-123', captchaId, captchaText: CAPTCHA_ANSWER, ...change });
      expect(answer.status).toBe(400);
      expect(answer.body.message).toBe(message);
      const [{ count }] = await auth.service.dataSource.query(`SELECT count(*)::int AS count FROM "users" WHERE lower("user_id") = lower($1)`, [userId]);
      expect(count).toBe(0);
    });

    it('gives a wrong password and an unknown ID the same 401', async () => {
      const { userId } = await signUp(auth);
      const wrongPassword = await auth.call('POST', '/api/auth/login', { body: { user_id: userId, password: 'not-the-one' } });
      const unknown = await auth.call('POST', '/api/auth/login', { body: { user_id: uniqueUserId(), password: 'not-the-one' } });
      expect(wrongPassword.status).toBe(401);
      expect(wrongPassword.body).toEqual({ code: 401, message: '小石榴号或密码错误', data: null });
      expect(unknown.body).toEqual(wrongPassword.body);
    });

    it('answers a NUL byte or a lone surrogate in a sign-in with a Chinese 400, not a database error', async () => {
      for (const user_id of ['ab\u0000c', 'ab\udc00c']) {
        const answer = await auth.call('POST', '/api/auth/login', { body: { user_id, password: 'whatever-1' } });
        expect(answer.status).toBe(400);
        expect(answer.body.message).toMatch(/[\u4e00-\u9fff]/);
      }
      expect((await auth.call('GET', '/api/users/ab%00c')).status).toBe(400);
    });

    it('revokes the whole session when a spent refresh token comes back', async () => {
      const { tokens } = await signUp(auth);
      const rotated = await auth.call<{ tokens: Tokens }>('POST', '/api/auth/refresh', { body: { refresh_token: tokens.refresh_token } });
      const replay = await auth.call('POST', '/api/auth/refresh', { body: { refresh_token: tokens.refresh_token } });
      expect(replay.body).toEqual({ code: 401, message: '未授权访问', data: null });
      expect((await auth.call('POST', '/api/auth/refresh', { body: { refresh_token: rotated.body.data.tokens.refresh_token } })).status).toBe(401);
      expect((await auth.call('GET', '/api/auth/me', { token: rotated.body.data.tokens.access_token })).status).toBe(401);
    });

    it('refuses a refresh token whose session has expired', async () => {
      const { tokens, user } = await signUp(auth);
      await auth.service.dataSource.query(`UPDATE "sessions" SET "expires_at" = now() - interval '1 second' WHERE "subject_id" = $1`, [user.id]);
      expect((await auth.call('POST', '/api/auth/refresh', { body: { refresh_token: tokens.refresh_token } })).status).toBe(401);
    });

    it('refuses unknown and missing refresh tokens', async () => {
      expect((await auth.call('POST', '/api/auth/refresh', { body: { refresh_token: 'made-up' } })).status).toBe(401);
      expect((await auth.call('POST', '/api/auth/refresh', { body: {} })).body).toEqual({ code: 400, message: '缺少刷新令牌', data: null });
    });

    it('refuses tokens signed by another key, expired ones, admin tokens and none at all', async () => {
      const { user, tokens } = await signUp(auth);
      const sign = async (pem: string, audience: string, expires: string) =>
        new SignJWT({ uid: user.user_id, sid: 'x' })
          .setProtectedHeader({ alg: 'EdDSA' })
          .setSubject(String(user.id))
          .setIssuer('shiliu-auth')
          .setAudience(audience)
          .setExpirationTime(expires)
          .sign(await importPKCS8(pem, 'EdDSA'));
      const stranger = await generateTokenKeyPair();
      for (const token of [
        await sign(stranger.privateKeyPem, 'shiliu-user', '1h'),
        await sign(auth.keys.privateKeyPem, 'shiliu-user', '-10s'),
        await sign(auth.keys.privateKeyPem, 'shiliu-admin', '1h'),
        tokens.refresh_token,
      ]) {
        expect((await auth.call('GET', '/api/auth/me', { token })).body).toEqual({ code: 401, message: '未授权访问', data: null });
      }
      expect((await auth.call('GET', '/api/auth/me')).status).toBe(401);
    });

    it('asks for a captcha, never a lockout, once an account is guessed at from many addresses', async () => {
      const { userId, password } = await signUp(auth);
      for (let i = 0; i < 5; i++) expect((await auth.call('POST', '/api/auth/login', { body: { user_id: userId, password: 'wrong-one' } })).status).toBe(401);
      const asked = await auth.call('POST', '/api/auth/login', { body: { user_id: userId, password } });
      expect(asked.body).toEqual({ code: 400, message: '登录失败次数过多，请输入验证码', data: { captchaRequired: true } });
      const wrongCaptcha = await auth.call('POST', '/api/auth/login', { body: { user_id: userId, password, ...(await auth.captcha()), captchaText: 'zzzz' } });
      expect(wrongCaptcha.status).toBe(400);
      expect((await auth.call('POST', '/api/auth/login', { body: { user_id: userId, password, ...(await auth.captcha()) } })).status).toBe(200);
    });

    it('makes one address that keeps guessing wait (429 with Retry-After) while the owner signs in from another', async () => {
      const { userId, password } = await signUp(auth);
      const ip = randomIp();
      for (let i = 0; i < 10; i++) {
        const wrong = await auth.call('POST', '/api/auth/login', { body: { user_id: userId, password: 'wrong-one', ...(await auth.captcha()) }, ip });
        expect(wrong.status).toBe(401);
      }
      const blocked = await auth.call('POST', '/api/auth/login', { body: { user_id: userId, password, ...(await auth.captcha()) }, ip });
      expect(blocked.status).toBe(429);
      expect(blocked.body.message).toMatch(/^请求过于频繁，请稍后再试（\d+秒后可重试）$/);
      expect(Number(blocked.headers.get('retry-after'))).toBe((blocked.body.data as { retryAfter: number }).retryAfter);
      expect((await auth.call('POST', '/api/auth/login', { body: { user_id: userId, password, ...(await auth.captcha()) } })).status).toBe(200);
    });

    it('limits captchas and sign-ins per address with 429', async () => {
      const ip = randomIp();
      for (let i = 0; i < 30; i++) expect((await auth.call('GET', '/api/auth/captcha', { ip })).status).toBe(200);
      expect((await auth.call('GET', '/api/auth/captcha', { ip })).status).toBe(429);
      for (let i = 0; i < 30; i++) await auth.call('POST', '/api/auth/login', { body: { user_id: uniqueUserId(), password: 'whatever' }, ip });
      expect((await auth.call('POST', '/api/auth/login', { body: { user_id: uniqueUserId(), password: 'whatever' }, ip })).status).toBe(429);
    });

    it('limits registrations per address with 429', async () => {
      const ip = randomIp();
      for (let i = 0; i < 10; i++) await signUp(auth, { ip });
      const { captchaId } = await captcha();
      const answer = await register({ user_id: uniqueUserId(), nickname: '同学', password: 'secret-123', captchaId, captchaText: CAPTCHA_ANSWER }, ip);
      expect(answer.status).toBe(429);
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    });
  });
});
