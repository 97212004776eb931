import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { generateTokenKeyPair, MinioStorage } from '@shiliu/platform';
import { assertRunning, distributedServiceEnv, freePort, requireEnv, spawnTs, stopProcess, waitFor } from '@shiliu/platform/testing';
import { Client } from 'pg';
import sharp from 'sharp';

type Child = ReturnType<typeof spawnTs>;
interface Envelope<T> {
  code: number;
  message: string;
  data: T;
}

/**
 * The product in distributed mode, end to end: auth, content and media each in its own process on its own schema,
 * the gateway proxying to them, events crossing through Kafka, files in MinIO. A student registers through the
 * gateway, posts a note with an image, renames themself, and deletes their account; the content service follows
 * each step from auth's events alone.
 */
describe('distributed mode end to end (gateway → services, events over Kafka)', () => {
  const database = `shiliu_e2e_${randomUUID().slice(0, 8)}`;
  const ports = { gateway: 0, auth: 0, content: 0, media: 0 };
  let base = '';
  const children: Child[] = [];
  const admin = new Client({ connectionString: requireEnv('DATABASE_URL') });

  const call = async <T>(method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: Envelope<T> }> => {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (token) headers.authorization = `Bearer ${token}`;
    const answer = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: answer.status, body: (await answer.json()) as Envelope<T> };
  };

  beforeAll(async () => {
    Object.assign(ports, { gateway: await freePort(), auth: await freePort(), content: await freePort(), media: await freePort() });
    base = `http://127.0.0.1:${ports.gateway}`;
    await admin.connect();
    await admin.query(`CREATE DATABASE "${database}"`);
    const url = new URL(requireEnv('DATABASE_URL'));
    url.pathname = `/${database}`;
    const keys = await generateTokenKeyPair();
    const common = {
      ...distributedServiceEnv({ databaseUrl: url.toString(), publicKeyPem: keys.publicKeyPem }),
      // Any free management port, so runs beside other processes on this machine never collide.
      METRICS_PORT: '0',
    };
    const start = (name: 'auth' | 'content' | 'media', extra: NodeJS.ProcessEnv = {}) =>
      spawnTs(join(__dirname, `../../${name}/src/main.ts`), [], { ...common, PORT: String(ports[name]), ...extra });
    children.push(
      start('auth', {
        AUTH_PRIVATE_KEY: keys.privateKeyPem,
        DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        ADMIN_PASSWORD: 'admin-secret-1',
        AUTH_CAPTCHA_TEST_ANSWER: 'e2e1',
      }),
      start('content'),
      start('media'),
    );
    const upstream = `http://127.0.0.1:${ports.media}`;
    children.push(
      spawnTs(join(__dirname, '../src/main.ts'), [], {
        PORT: String(ports.gateway),
        METRICS_PORT: '0',
        REDIS_URL: requireEnv('REDIS_URL'),
        AUTH_URL: `http://127.0.0.1:${ports.auth}`,
        CONTENT_URL: `http://127.0.0.1:${ports.content}`,
        MEDIA_URL: upstream,
        SOCIAL_URL: upstream,
        NOTIFY_URL: upstream,
        SEARCH_URL: upstream,
        WEB_DIST_DIR: join(__dirname, '../../web/dist'),
      }),
    );
    await waitFor(
      'every process to be ready',
      async () => {
        children.forEach(assertRunning);
        const answers = await Promise.all(
          [ports.auth, ports.content, ports.media].map((p) => fetch(`http://127.0.0.1:${p}/health/ready`).then((a) => a.ok)),
        );
        return answers.every(Boolean) && (await fetch(`${base}/health/live`)).ok;
      },
      150_000,
      500,
    );
  });

  afterAll(async () => {
    await Promise.all(children.map((child) => stopProcess(child)));
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.end();
  });

  it('follows a student from registration to account deletion across services', async () => {
    const captcha = await call<{ captchaId: string }>('GET', '/api/auth/captcha');
    const userId = `e2e_${randomBytes(4).toString('hex')}`;
    const registered = await call<{ tokens: { access_token: string }; user: { id: number } }>('POST', '/api/auth/register', {
      user_id: userId,
      nickname: '端到端',
      password: 'secret-123',
      captchaId: captcha.body.data.captchaId,
      captchaText: 'E2E1',
    });
    expect(registered.status).toBe(200);
    const token = registered.body.data.tokens.access_token;

    // Content takes writes only from users it has learned of through user.registered.
    await waitFor('content to learn the student from user.registered', async () => (await call('GET', `/api/users/${userId}/posts`)).status === 200, 60_000, 250);

    const key = `images/e2e/${randomUUID()}.png`;
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 255, g: 36, b: 66 } } }).png().toBuffer();
    await new MinioStorage({ endpoint: requireEnv('S3_ENDPOINT'), accessKey: requireEnv('S3_ACCESS_KEY'), secretKey: requireEnv('S3_SECRET_KEY'), bucket: 'shiliu' }).put(key, png, 'image/png');
    const file = await fetch(`${base}/api/files/${key}`);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await file.arrayBuffer())).toEqual(png);

    const created = await call<{ id: number }>(
      'POST',
      '/api/posts',
      { title: '分布式的第一篇', content: '<p>经过网关、Kafka 和 MinIO</p>', category_id: 1, type: 1, images: [`/api/files/${key}`], tags: ['测试'] },
      token,
    );
    expect(created.status).toBe(200);
    const postId = created.body.data.id;
    const author = async () => (await call<{ nickname: string }>('GET', `/api/posts/${postId}?skipViewCount=true`)).body.data?.nickname;
    expect(await author()).toBe('端到端');

    expect((await call('PUT', `/api/users/${userId}`, { nickname: '改了名字' }, token)).status).toBe(200);
    await waitFor('content to follow user.updated', async () => (await author()) === '改了名字', 60_000, 250);

    expect((await call('DELETE', `/api/users/${userId}`, undefined, token)).status).toBe(200);
    await waitFor('content to remove the notes on user.deleted', async () => (await call('GET', `/api/posts/${postId}`)).status === 404, 60_000, 250);
  });
});
