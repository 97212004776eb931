import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateTokenKeyPair, LocalDirectoryStorage, MinioStorage, type ObjectStorage } from '@shiliu/platform';
import { assertRunning, distributedServiceEnv, freePort, headAndTail, requireEnv, spawnTs, stopProcess, waitFor } from '@shiliu/platform/testing';
import { Client } from 'pg';

type Child = ReturnType<typeof spawnTs>;

/** For callers waiting on what the stack learns through its events (the web's browser tests). */
export { waitFor };

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

export type RunMode = 'distributed' | 'embedded';

export interface ProductStack {
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
  /** Where the product keeps uploaded files (MinIO, or the data directory when embedded). */
  storage: ObjectStorage;
  /** Each notify replica's own origin (distributed mode; the gateway sends notify's calls to the first). */
  notifyUrls: string[];
  /** The stack's own database (each service in its schema), for what no call can do yet. */
  databaseUrl: string;
  /** Registers a student through the gateway. */
  signUp(nickname: string): Promise<StackUser>;
  stop(): Promise<void>;
}

/**
 * The product in either run mode, on a database of its own, without demo data. Distributed: auth, content, social,
 * notify, search and media each in its own process (notify as `notifyReplicas` replicas sharing one consumer
 * group), the gateway proxying to them, events over Kafka, files in MinIO, search in Elasticsearch. Embedded: the
 * one process `npm start` runs, on the same PostgreSQL, events in process, files in its data directory.
 */
export async function startProductStack(mode: RunMode, gatewayEnv: NodeJS.ProcessEnv = {}, options: { notifyReplicas?: number; serviceEnv?: NodeJS.ProcessEnv } = {}): Promise<ProductStack> {
  const database = `shiliu_stack_${randomUUID().slice(0, 8)}`;
  const ports = { gateway: await freePort(), auth: await freePort(), content: await freePort(), social: await freePort(), media: await freePort(), search: await freePort() };
  const notifyPorts: number[] = [];
  for (let i = 0; i < (mode === 'distributed' ? (options.notifyReplicas ?? 1) : 0); i++) notifyPorts.push(await freePort());
  const dataDir = mkdtempSync(join(tmpdir(), 'shiliu-stack-'));
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
    if (mode === 'distributed') await fetch(`${requireEnv('ELASTICSEARCH_URL')}/${database}-*`, { method: 'DELETE' });
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  };
  const storage: ObjectStorage =
    mode === 'distributed'
      ? new MinioStorage({ endpoint: requireEnv('S3_ENDPOINT'), accessKey: requireEnv('S3_ACCESS_KEY'), secretKey: requireEnv('S3_SECRET_KEY'), bucket: 'shiliu' })
      : new LocalDirectoryStorage(join(dataDir, 'files'));

  const url = new URL(requireEnv('DATABASE_URL'));
  url.pathname = `/${database}`;
  try {
    if (mode === 'embedded') {
      children.push(
        spawnTs(join(__dirname, '../src/embedded.ts'), [], {
          PORT: String(ports.gateway),
          DATA_DIR: dataDir,
          DATABASE_URL: url.toString(),
          DEMO_DATA: 'false',
          ADMIN_PASSWORD: adminPassword,
          AUTH_CAPTCHA_TEST_ANSWER: captchaAnswer,
          WEB_DIST_DIR: join(__dirname, '../../web/dist'),
          NODE_ENV: 'test',
          ...gatewayEnv,
        }),
      );
    }
    const keys = await generateTokenKeyPair();
    const common = { ...distributedServiceEnv({ databaseUrl: url.toString(), publicKeyPem: keys.publicKeyPem, topicPrefix: `${database}.` }), ...options.serviceEnv };
    const start = (name: 'auth' | 'content' | 'social' | 'notify' | 'media' | 'search', extra: NodeJS.ProcessEnv = {}, port = ports[name as keyof typeof ports]) =>
      spawnTs(join(__dirname, `../../${name}/src/main.ts`), [], { ...common, PORT: String(port), ...extra });
    if (mode === 'distributed') children.push(
      start('auth', {
        AUTH_PRIVATE_KEY: keys.privateKeyPem,
        DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        ADMIN_PASSWORD: adminPassword,
        AUTH_CAPTCHA_TEST_ANSWER: captchaAnswer,
      }),
      start('content'),
      start('social'),
      start('media'),
      // Indices of its own, named like the database, removed with it.
      start('search', { SEARCH_ENGINE: 'elasticsearch', ELASTICSEARCH_URL: requireEnv('ELASTICSEARCH_URL'), SEARCH_INDEX_PREFIX: database }),
      ...notifyPorts.map((port) => start('notify', {}, port)),
    );
    const media = `http://127.0.0.1:${ports.media}`;
    if (mode === 'distributed') children.push(
      spawnTs(join(__dirname, '../src/main.ts'), [], {
        PORT: String(ports.gateway),
        REDIS_URL: requireEnv('REDIS_URL'),
        AUTH_URL: `http://127.0.0.1:${ports.auth}`,
        CONTENT_URL: `http://127.0.0.1:${ports.content}`,
        MEDIA_URL: media,
        SOCIAL_URL: `http://127.0.0.1:${ports.social}`,
        NOTIFY_URL: `http://127.0.0.1:${notifyPorts[0]}`,
        SEARCH_URL: `http://127.0.0.1:${ports.search}`,
        WEB_DIST_DIR: join(__dirname, '../../web/dist'),
        ...gatewayEnv,
      }),
    );
    let lastHealth = 'no answer';
    await waitFor(
      'every process to be ready',
      async () => {
        children.forEach(assertRunning);
        const answer = await fetch(`${base}/api/health`).catch(() => null);
        if (answer) lastHealth = `${answer.status} ${await answer.text()}`;
        // The gateway asks the first notify replica only; the others are waited for on their own.
        const replicas = await Promise.all(notifyPorts.map((port) => fetch(`http://127.0.0.1:${port}/health/ready`).then((ready) => ready.ok, () => false)));
        return answer?.ok === true && replicas.every(Boolean);
      },
      150_000,
      500,
    ).catch((error: Error) => {
      // Name what stayed down and what each process said, so a slow start on a loaded machine can be told apart from a fault.
      const said = children.map((child) => `--- ${child.spawnargs.at(-1)}:\n${headAndTail(child.output())}`).join('\n');
      throw new Error(`${error.message}; last /api/health: ${lastHealth}\n${said}`);
    });
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
    storage,
    call,
    notifyUrls: notifyPorts.map((port) => `http://127.0.0.1:${port}`),
    databaseUrl: url.toString(),
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
