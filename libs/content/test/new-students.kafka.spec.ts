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

const apps = join(__dirname, '../../../apps');

/**
 * Found from outside: 50 students registered at once, then 100 likes at once, and up to 18 likes were answered 401
 * (content waited 3 s for each student's user.registered, then refused), which the web app takes for an expired
 * session. Here auth and content run as their own processes with the events crossing through Kafka, and auth's
 * events are held back (its outbox relay's lock is taken) for as long as the likes take, so every like certainly
 * comes before its student's event.
 */
describe('likes from students content has not heard of yet (distributed, events over Kafka)', () => {
  const database = `shiliu_fresh_${randomUUID().slice(0, 8)}`;
  const ports = { auth: 0, content: 0 };
  const children: Child[] = [];
  const admin = new Client({ connectionString: requireEnv('DATABASE_URL') });
  let db: Client;

  const call = async <T>(port: number, method: string, path: string, body?: unknown, token?: string, address = '127.0.0.1'): Promise<{ status: number; body: Envelope<T> }> => {
    const headers: Record<string, string> = { 'x-forwarded-for': address };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (token) headers.authorization = `Bearer ${token}`;
    const answer = await fetch(`http://127.0.0.1:${port}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: answer.status, body: (await answer.json()) as Envelope<T> };
  };

  /** Each from an address of its own: auth limits registrations per address. */
  const register = async (nickname: string): Promise<{ userId: string; token: string }> => {
    const address = `10.${randomBytes(3).join('.')}`;
    const captcha = await call<{ captchaId: string }>(ports.auth, 'GET', '/api/auth/captcha', undefined, undefined, address);
    const userId = `fr_${randomBytes(4).toString('hex')}`;
    const registered = await call<{ tokens: { access_token: string } }>(
      ports.auth,
      'POST',
      '/api/auth/register',
      { user_id: userId, nickname, password: 'secret-123', captchaId: captcha.body.data.captchaId, captchaText: 'FRS1' },
      undefined,
      address,
    );
    expect(registered.status).toBe(200);
    return { userId, token: registered.body.data.tokens.access_token };
  };

  beforeAll(async () => {
    Object.assign(ports, { auth: await freePort(), content: await freePort() });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${database}"`);
    const url = new URL(requireEnv('DATABASE_URL'));
    url.pathname = `/${database}`;
    db = new Client({ connectionString: url.toString() });
    await db.connect();
    const keys = await generateTokenKeyPair();
    const common = distributedServiceEnv({ databaseUrl: url.toString(), publicKeyPem: keys.publicKeyPem, topicPrefix: `${database}.` });
    const start = (name: 'auth' | 'content', extra: NodeJS.ProcessEnv = {}) => spawnTs(join(apps, `${name}/src/main.ts`), [], { ...common, PORT: String(ports[name]), ...extra });
    children.push(
      start('auth', { AUTH_PRIVATE_KEY: keys.privateKeyPem, DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'), ADMIN_PASSWORD: 'admin-secret-1', AUTH_CAPTCHA_TEST_ANSWER: 'frs1' }),
      start('content'),
    );
    await waitFor(
      'both processes to be ready',
      async () => {
        children.forEach(assertRunning);
        const answers = await Promise.all([ports.auth, ports.content].map((port) => fetch(`http://127.0.0.1:${port}/health/ready`).then((answer) => answer.ok)));
        return answers.every(Boolean);
      },
      180_000,
      500,
    );
  });

  afterAll(async () => {
    await Promise.all(children.map((child) => stopProcess(child)));
    await db?.end();
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.end();
  });

  it('answers every one of 100 parallel likes by 50 just-registered students, none 401, and takes their profiles from the events afterwards', async () => {
    const author = await register('作者');
    const key = `images/fresh-e2e/${randomUUID()}.png`;
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 255, g: 36, b: 66 } } }).png().toBuffer();
    await new MinioStorage({ endpoint: requireEnv('S3_ENDPOINT'), accessKey: requireEnv('S3_ACCESS_KEY'), secretKey: requireEnv('S3_SECRET_KEY'), bucket: 'shiliu' }).put(key, png, 'image/png');
    const form = { title: '新生报到', content: '<p>欢迎</p>', category_id: 1, type: 1, images: [`/api/files/${key}`], tags: [] };
    const notes = await Promise.all([0, 1].map(() => call<{ id: number }>(ports.content, 'POST', '/api/posts', form, author.token)));
    expect(notes.map((note) => note.status)).toEqual([200, 200]);

    // Auth's relay publishes only under this lock: the students' user.registered events stay in auth's outbox.
    await db.query(`SELECT pg_advisory_lock(hashtext('outbox:auth'))`);
    let students: { userId: string; token: string }[];
    try {
      students = await Promise.all(Array.from({ length: 50 }, (_, i) => register(`新生${i}`)));
      const likes = await Promise.all(
        students.flatMap((student) => notes.map((note) => call(ports.content, 'POST', '/api/likes', { target_type: 1, target_id: note.body.data.id }, student.token))),
      );
      expect(likes.filter((like) => like.status !== 200).map((like) => like.body)).toEqual([]);
      // Every like came before its student's event left auth.
      const [held] = (
        await db.query<{ n: number }>(
          `SELECT count(*)::int AS "n" FROM "auth"."outbox" WHERE "type" = 'user.registered' AND "published_at" IS NULL AND "envelope"->'payload'->'user'->>'user_id' = ANY($1)`,
          [students.map((student) => student.userId)],
        )
      ).rows;
      expect(held.n).toBe(50);
    } finally {
      await db.query(`SELECT pg_advisory_unlock(hashtext('outbox:auth'))`);
    }

    await waitFor(
      'content to take the students’ profiles from user.registered',
      async () => {
        const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS "n" FROM "content"."authors" WHERE "user_id" = ANY($1) AND "nickname" LIKE '新生%'`, [
          students.map((student) => student.userId),
        ]);
        return rows[0].n === 50;
      },
      60_000,
      250,
    );
    const counted = await db.query<{ like_count: number; likes: number }>(
      `SELECT "like_count", (SELECT count(*)::int FROM "content"."likes" l WHERE l."target_type" = 1 AND l."target_id" = p."id") AS "likes"
       FROM "content"."posts" p WHERE "id" = ANY($1) ORDER BY "id"`,
      [notes.map((note) => note.body.data.id)],
    );
    expect(counted.rows).toEqual([
      { like_count: 50, likes: 50 },
      { like_count: 50, likes: 50 },
    ]);
  });
});
