import { randomBytes } from 'node:crypto';
import { createLogger, RedisRevocationList, type RevocationList, type ServiceRuntime, type TokenKeyPair } from '@shiliu/platform';
import { type Answer, type CallOptions, ServiceTestApp } from '@shiliu/platform/testing';
import type { Redis } from 'ioredis';
import { authService } from '../src';
import type { PublicUser } from '../src/users/public-user';

export const CAPTCHA_ANSWER = 'Ab3d';
export const ADMIN_PASSWORD = 'admin-secret-1';

/**
 * The auth service as every service's tests start one, with what only auth needs: the private key it signs with,
 * a data key for personal fields, a known captcha answer and first administrator's password, and Redis (as in
 * distributed mode) or memory (embedded) for captchas, rate limits and revoked sessions. Each call comes from a
 * client address of its own unless one is given, so rate limits only bite where a test means them to.
 */
export class AuthTestApp extends ServiceTestApp {
  static async start(options: { redis?: Redis | null; trustProxy?: ServiceRuntime['trustProxy'] } = {}): Promise<AuthTestApp> {
    process.env.AUTH_CAPTCHA_TEST_ANSWER = CAPTCHA_ANSWER;
    process.env.ADMIN_PASSWORD = ADMIN_PASSWORD;
    const redis = options.redis ?? null;
    const revocations = redis ? new RedisRevocationList(redis, createLogger('test', 'silent')) : undefined;
    await revocations?.whenReady();
    return new AuthTestApp(
      await ServiceTestApp.boot(authService, { redis, ...(revocations && { revocations }), ...(options.trustProxy && { trustProxy: options.trustProxy }), secrets: { dataEncryptionKey: randomBytes(32).toString('base64') } }),
    );
  }

  get keys(): TokenKeyPair {
    return this.runtime.keys;
  }

  get revocations(): RevocationList {
    return this.runtime.revocations;
  }

  override async call<T = unknown>(method: string, path: string, options: CallOptions & { ip?: string } = {}): Promise<Answer<T> & { text: string }> {
    const headers: Record<string, string> = { 'x-forwarded-for': options.ip ?? randomIp(), ...options.headers };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const answer = await fetch(this.base + path, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
    const text = await answer.text();
    return { status: answer.status, headers: answer.headers, body: JSON.parse(text) as Answer<T>['body'], text };
  }

  /** A fresh captcha's id with its answer, as a sign-in or registration body carries them. */
  async captcha(): Promise<{ captchaId: string; captchaText: string }> {
    const answer = await this.call<{ captchaId: string }>('GET', '/api/auth/captcha');
    return { captchaId: answer.body.data.captchaId, captchaText: CAPTCHA_ANSWER };
  }

  override async close(): Promise<void> {
    await super.close();
    await this.runtime.revocations.close();
  }
}

export function randomIp(): string {
  const bytes = randomBytes(3);
  return `10.${bytes[0]}.${bytes[1]}.${bytes[2]}`;
}

export function uniqueUserId(prefix = 'u'): string {
  return `${prefix}_${randomBytes(5).toString('hex')}`.slice(0, 15);
}

export interface Tokens {
  access_token: string;
  refresh_token: string;
  expires_in: number;
}

export interface SignedUp {
  userId: string;
  password: string;
  tokens: Tokens;
  user: PublicUser;
}

/** Registers a fresh student through the public call, captcha and all. */
export async function signUp(auth: AuthTestApp, overrides: { nickname?: string; ip?: string } = {}): Promise<SignedUp> {
  const userId = uniqueUserId();
  const password = 'secret-123';
  const captcha = await auth.captcha();
  const answer = await auth.call<{ tokens: Tokens; user: PublicUser }>('POST', '/api/auth/register', {
    body: { user_id: userId, nickname: overrides.nickname ?? '测试同学', password, ...captcha },
    ip: overrides.ip,
  });
  if (answer.status !== 200) throw new Error(`sign-up failed: ${answer.text}`);
  return { userId, password, ...answer.body.data };
}
