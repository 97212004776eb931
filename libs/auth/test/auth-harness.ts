import { randomBytes, randomUUID } from 'node:crypto';
import { authService } from '../src';
import {
  createLogger,
  createServiceApp,
  RedisRevocationList,
  type RevocationList,
  type ServiceApp,
  type ServiceName,
  type TokenKeyPair,
} from '@shiliu/platform';
import { requireEnv, testServiceRuntime } from '@shiliu/platform/testing';
import type { Redis } from 'ioredis';
import type { PublicUser } from '../src/users/public-user';

export const CAPTCHA_ANSWER = 'Ab3d';
export const ADMIN_PASSWORD = 'admin-secret-1';

export interface Answer<T = unknown> {
  status: number;
  headers: Headers;
  body: { code: number; message: string; data: T };
  text: string;
}

export interface AuthHarness {
  service: ServiceApp;
  keys: TokenKeyPair;
  schema: string;
  revocations: RevocationList;
  call<T = unknown>(method: string, path: string, options?: { body?: unknown; token?: string; ip?: string }): Promise<Answer<T>>;
  /** A fresh captcha's id with its answer, as a sign-in or registration body carries them. */
  captcha(): Promise<{ captchaId: string; captchaText: string }>;
  close(): Promise<void>;
}

/**
 * The auth service on real PostgreSQL, in a schema of its own so that every run starts empty, with Redis (as in
 * distributed mode) or memory (embedded) for captchas, rate limits and revoked sessions. Each call comes from its own client address
 * unless one is given, so rate limits only bite where a test means them to.
 */
export async function startAuth(redis: Redis | null): Promise<AuthHarness> {
  process.env.AUTH_CAPTCHA_TEST_ANSWER = CAPTCHA_ANSWER;
  process.env.ADMIN_PASSWORD = ADMIN_PASSWORD;
  const revocations = redis ? new RedisRevocationList(redis, createLogger('test', 'silent')) : undefined;
  await revocations?.whenReady();
  const runtime = await testServiceRuntime({ redis, ...(revocations && { revocations }) });
  const keys = runtime.keys;
  runtime.secrets = { tokenPrivateKeyPem: keys.privateKeyPem, dataEncryptionKey: randomBytes(32).toString('base64') };
  const schema = `auth_t_${randomUUID().slice(0, 8)}`;
  const service = await createServiceApp({ ...authService, name: schema as ServiceName }, runtime);
  service.app.set('trust proxy', 'loopback');
  await service.app.listen(0, '127.0.0.1');
  const base = await service.app.getUrl();
  const harness: AuthHarness = {
    service,
    keys,
    schema,
    revocations: runtime.revocations,
    async call(method, path, options = {}) {
      const headers: Record<string, string> = { 'x-forwarded-for': options.ip ?? randomIp() };
      if (options.body !== undefined) headers['content-type'] = 'application/json';
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      const answer = await fetch(base + path, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
      const text = await answer.text();
      return { status: answer.status, headers: answer.headers, body: JSON.parse(text) as Answer<never>['body'], text };
    },
    async captcha() {
      const answer = await harness.call<{ captchaId: string }>('GET', '/api/auth/captcha');
      return { captchaId: answer.body.data.captchaId, captchaText: CAPTCHA_ANSWER };
    },
    async close() {
      await service.close();
      await runtime.revocations.close();
      const { Client } = await import('pg');
      const client = new Client({ connectionString: requireEnv('DATABASE_URL') });
      await client.connect();
      await client.query(`DROP SCHEMA "${schema}" CASCADE`);
      await client.end();
    },
  };
  return harness;
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
export async function signUp(auth: AuthHarness, overrides: { nickname?: string; ip?: string } = {}): Promise<SignedUp> {
  const userId = uniqueUserId();
  const password = 'secret-123';
  const captcha = await auth.call<{ captchaId: string }>('GET', '/api/auth/captcha');
  const answer = await auth.call<{ tokens: Tokens; user: PublicUser }>('POST', '/api/auth/register', {
    body: { user_id: userId, nickname: overrides.nickname ?? '测试同学', password, captchaId: captcha.body.data.captchaId, captchaText: CAPTCHA_ANSWER },
    ip: overrides.ip,
  });
  if (answer.status !== 200) throw new Error(`sign-up failed: ${answer.text}`);
  return { userId, password, ...answer.body.data };
}
