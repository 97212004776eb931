import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { assertRunning, freePort, generateTokenKeyPair, requireEnv, spawnTs, stopProcess, waitFor } from '@shiliu/platform';
import { Client } from 'pg';

type Child = ReturnType<typeof spawnTs>;

export interface Envelope<T> {
  code: number;
  message: string;
  data: T;
}

export interface StackUser {
  id: number;
  userId: string;
  token: string;
}

export interface DistributedStack {
  /** The gateway's origin, e.g. http://127.0.0.1:44000. */
  base: string;
  /** The captcha answer auth accepts in this stack. */
  captchaAnswer: string;
  /** The first administrator's (`admin`) password. */
  adminPassword: string;
  /**
   * The address this stack's callers claim (X-Forwarded-For, which the gateway trusts from loopback): auth's
   * per-address limits live in the shared Redis, so each stack counts against an address of its own.
   */
  clientAddress: string;
  call<T>(method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: Envelope<T> }>;
  /** Registers a student through the gateway. */
  signUp(nickname: string): Promise<StackUser>;
  stop(): Promise<void>;
}

/**
 * The product as `npm test` runs it distributed: auth, content and media each in its own process on a database of
 * their own, the gateway proxying to them, events over Kafka, files in MinIO. The services not built yet are
 * pointed at media, which answers their calls with 404.
 */
export async function startDistributedStack(gatewayEnv: NodeJS.ProcessEnv = {}): Promise<DistributedStack> {
  const database = `shiliu_stack_${randomUUID().slice(0, 8)}`;
  const ports = { gateway: await freePort(), auth: await freePort(), content: await freePort(), media: await freePort() };
  const base = `http://127.0.0.1:${ports.gateway}`;
  const captchaAnswer = 'st42';
  const adminPassword = 'admin-secret-1';
  const clientAddress = `10.${200 + Math.floor(Math.random() * 50)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`;
  const children: Child[] = [];
  const admin = new Client({ connectionString: requireEnv('DATABASE_URL') });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${database}"`);

  const stop = async () => {
    await Promise.all(children.map((child) => stopProcess(child)));
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.end();
  };

  try {
    const url = new URL(requireEnv('DATABASE_URL'));
    url.pathname = `/${database}`;
    const keys = await generateTokenKeyPair();
    const common = {
      DATABASE_URL: url.toString(),
      KAFKA_BROKERS: requireEnv('KAFKA_BROKERS'),
      KAFKA_SESSION_TIMEOUT_MS: '6000',
      REDIS_URL: requireEnv('REDIS_URL'),
      S3_ENDPOINT: requireEnv('S3_ENDPOINT'),
      S3_ACCESS_KEY: requireEnv('S3_ACCESS_KEY'),
      S3_SECRET_KEY: requireEnv('S3_SECRET_KEY'),
      AUTH_PUBLIC_KEY: keys.publicKeyPem,
      NODE_ENV: 'test',
    };
    const start = (name: 'auth' | 'content' | 'media', extra: NodeJS.ProcessEnv = {}) =>
      spawnTs(join(__dirname, `../../${name}/src/main.ts`), [], { ...common, PORT: String(ports[name]), ...extra });
    children.push(
      start('auth', {
        AUTH_PRIVATE_KEY: keys.privateKeyPem,
        DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        ADMIN_PASSWORD: adminPassword,
        AUTH_CAPTCHA_TEST_ANSWER: captchaAnswer,
      }),
      start('content'),
      start('media'),
    );
    const media = `http://127.0.0.1:${ports.media}`;
    children.push(
      spawnTs(join(__dirname, '../src/main.ts'), [], {
        PORT: String(ports.gateway),
        REDIS_URL: requireEnv('REDIS_URL'),
        AUTH_URL: `http://127.0.0.1:${ports.auth}`,
        CONTENT_URL: `http://127.0.0.1:${ports.content}`,
        MEDIA_URL: media,
        SOCIAL_URL: media,
        NOTIFY_URL: media,
        SEARCH_URL: media,
        WEB_DIST_DIR: join(__dirname, '../../web/dist'),
        ...gatewayEnv,
      }),
    );
    await waitFor(
      'every process to be ready',
      async () => {
        children.forEach(assertRunning);
        const answers = await Promise.all([ports.auth, ports.content, ports.media].map((p) => fetch(`http://127.0.0.1:${p}/health/ready`).then((a) => a.ok)));
        return answers.every(Boolean) && (await fetch(`${base}/health/live`)).ok;
      },
      150_000,
      500,
    );
  } catch (error) {
    await stop();
    throw error;
  }

  const call = async <T>(method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: Envelope<T> }> => {
    const headers: Record<string, string> = { 'x-forwarded-for': clientAddress };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (token) headers.authorization = `Bearer ${token}`;
    const answer = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: answer.status, body: (await answer.json()) as Envelope<T> };
  };

  return {
    base,
    captchaAnswer,
    adminPassword,
    clientAddress,
    call,
    async signUp(nickname) {
      const captcha = await call<{ captchaId: string }>('GET', '/api/auth/captcha');
      const userId = `st_${randomBytes(4).toString('hex')}`;
      const registered = await call<{ tokens: { access_token: string }; user: { id: number } }>('POST', '/api/auth/register', {
        user_id: userId,
        nickname,
        password: 'secret-123',
        captchaId: captcha.body.data.captchaId,
        captchaText: captchaAnswer,
      });
      if (registered.status !== 200) throw new Error(`registration failed: ${JSON.stringify(registered.body)}`);
      return { id: registered.body.data.user.id, userId, token: registered.body.data.tokens.access_token };
    },
    stop,
  };
}
