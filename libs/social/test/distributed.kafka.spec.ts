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
type Stats = Record<'follow_count' | 'fans_count' | 'post_count' | 'like_count' | 'collect_count' | 'likes_and_collects', number>;

const apps = join(__dirname, '../../../apps');

/**
 * Social in distributed mode: auth, content and social each in its own process on its own schema, the gateway
 * proxying to them, events crossing through Kafka. Social learns the users from auth's events and the notes and likes
 * from content's; every social call answers through the gateway.
 */
describe('social in distributed mode (gateway → services, events over Kafka)', () => {
  const database = `shiliu_social_${randomUUID().slice(0, 8)}`;
  const ports = { gateway: 0, auth: 0, content: 0, social: 0 };
  let base = '';
  const children: Child[] = [];
  const admin = new Client({ connectionString: requireEnv('DATABASE_URL') });

  // Auth limits registrations per address in the Redis every test run shares: this run comes from an address of its own.
  const address = `10.${randomBytes(3).join('.')}`;
  const call = async <T>(method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: Envelope<T> }> => {
    const headers: Record<string, string> = { 'x-forwarded-for': address };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (token) headers.authorization = `Bearer ${token}`;
    const answer = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: answer.status, body: (await answer.json()) as Envelope<T> };
  };

  const register = async (nickname: string): Promise<{ userId: string; token: string }> => {
    const captcha = await call<{ captchaId: string }>('GET', '/api/auth/captcha');
    const userId = `so_${randomBytes(4).toString('hex')}`;
    const registered = await call<{ tokens: { access_token: string } }>('POST', '/api/auth/register', {
      user_id: userId,
      nickname,
      password: 'secret-123',
      captchaId: captcha.body.data.captchaId,
      captchaText: 'SOC1',
    });
    expect(registered.status).toBe(200);
    return { userId, token: registered.body.data.tokens.access_token };
  };

  const stats = async (userId: string): Promise<Stats | null> => {
    const answer = await call<Stats>('GET', `/api/users/${userId}/stats`);
    return answer.status === 200 ? answer.body.data : null;
  };

  beforeAll(async () => {
    Object.assign(ports, { gateway: await freePort(), auth: await freePort(), content: await freePort(), social: await freePort() });
    base = `http://127.0.0.1:${ports.gateway}`;
    await admin.connect();
    await admin.query(`CREATE DATABASE "${database}"`);
    const url = new URL(requireEnv('DATABASE_URL'));
    url.pathname = `/${database}`;
    const keys = await generateTokenKeyPair();
    const common = distributedServiceEnv({ databaseUrl: url.toString(), publicKeyPem: keys.publicKeyPem, topicPrefix: `${database}.` });
    const start = (name: 'auth' | 'content' | 'social', extra: NodeJS.ProcessEnv = {}) =>
      spawnTs(join(apps, `${name}/src/main.ts`), [], { ...common, PORT: String(ports[name]), ...extra });
    children.push(
      start('auth', { AUTH_PRIVATE_KEY: keys.privateKeyPem, DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'), ADMIN_PASSWORD: 'admin-secret-1', AUTH_CAPTCHA_TEST_ANSWER: 'soc1' }),
      start('content'),
      start('social'),
    );
    const unused = `http://127.0.0.1:${ports.social}`;
    children.push(
      spawnTs(join(apps, 'gateway/src/main.ts'), [], {
        PORT: String(ports.gateway),
        REDIS_URL: requireEnv('REDIS_URL'),
        AUTH_URL: `http://127.0.0.1:${ports.auth}`,
        CONTENT_URL: `http://127.0.0.1:${ports.content}`,
        SOCIAL_URL: `http://127.0.0.1:${ports.social}`,
        MEDIA_URL: unused,
        NOTIFY_URL: unused,
        SEARCH_URL: unused,
        WEB_DIST_DIR: join(apps, 'web/dist'),
      }),
    );
    await waitFor(
      'every process to be ready',
      async () => {
        children.forEach(assertRunning);
        const answers = await Promise.all([ports.auth, ports.content, ports.social].map((p) => fetch(`http://127.0.0.1:${p}/health/ready`).then((a) => a.ok)));
        return answers.every(Boolean) && (await fetch(`${base}/health/live`)).ok;
      },
      180_000,
      500,
    );
  });

  afterAll(async () => {
    await Promise.all(children.map((child) => stopProcess(child)));
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.end();
  });

  it("answers every social call through the gateway; a follow moves both users' counters, a like and a collection in content the author's", async () => {
    const fan = await register('粉丝');
    const author = await register('作者');
    await waitFor('social to learn both users from user.registered', async () => (await stats(fan.userId)) !== null && (await stats(author.userId)) !== null, 60_000, 250);

    const followed = await call('POST', `/api/users/${author.userId}/follow`, undefined, fan.token);
    expect(followed.body).toMatchObject({ code: 200, message: '关注成功', data: { followed: true, buttonType: 'unfollow' } });
    expect(await stats(fan.userId)).toMatchObject({ follow_count: 1, fans_count: 0 });
    expect(await stats(author.userId)).toMatchObject({ follow_count: 0, fans_count: 1 });
    expect((await call('GET', `/api/users/follow-status?ids=${author.userId},${fan.userId}`, undefined, author.token)).body.data).toEqual({
      statuses: [
        { user_id: author.userId, followed: false, isMutual: false, buttonType: 'follow' },
        { user_id: fan.userId, followed: false, isMutual: false, buttonType: 'back' },
      ],
    });
    expect((await call<{ followers: { user_id: string }[] }>('GET', `/api/users/${author.userId}/followers`)).body.data.followers.map((item) => item.user_id)).toEqual([fan.userId]);

    const key = `images/social-e2e/${randomUUID()}.png`;
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 255, g: 36, b: 66 } } }).png().toBuffer();
    await new MinioStorage({ endpoint: requireEnv('S3_ENDPOINT'), accessKey: requireEnv('S3_ACCESS_KEY'), secretKey: requireEnv('S3_SECRET_KEY'), bucket: 'shiliu' }).put(key, png, 'image/png');
    const image = `/api/files/${key}`;
    const created = await call<{ id: number }>('POST', '/api/posts', { title: '经过 Kafka 的笔记', content: '<p>点个赞</p>', category_id: 1, type: 1, images: [image], tags: [] }, author.token);
    expect(created.status).toBe(200);
    await waitFor('social to count the published note', async () => (await stats(author.userId))?.post_count === 1, 60_000, 250);

    expect((await call('POST', '/api/likes', { target_type: 1, target_id: created.body.data.id }, fan.token)).status).toBe(200);
    expect((await call('POST', `/api/posts/${created.body.data.id}/collect`, undefined, fan.token)).status).toBe(200);
    await waitFor('the like and the collection to reach social', async () => {
      const current = await stats(author.userId);
      return current?.like_count === 1 && current.collect_count === 1;
    }, 60_000, 250);
    expect(await stats(author.userId)).toEqual({ follow_count: 0, fans_count: 1, post_count: 1, like_count: 1, collect_count: 1, likes_and_collects: 2 });

    const card = await call<Record<string, unknown>>('GET', `/api/users/${author.userId}/card`, undefined, fan.token);
    expect(card.body.data).toMatchObject({ nickname: '作者', fansCount: 1, likeAndCollectCount: 2, isFollowing: true, buttonType: 'unfollow', images: [expect.stringContaining(key)] });

    expect((await call('POST', `/api/users/${fan.userId}/follow`, undefined, author.token)).body.data).toEqual({ followed: true, isMutual: true, buttonType: 'mutual' });
    expect((await call('GET', `/api/users/${author.userId}/follow-status`, undefined, fan.token)).body.data).toEqual({ followed: true, isMutual: true, buttonType: 'mutual' });
    expect((await call<{ mutualFollows: { user_id: string }[] }>('GET', `/api/users/${fan.userId}/mutual-follows`, undefined, fan.token)).body.data.mutualFollows).toEqual([
      expect.objectContaining({ user_id: author.userId, nickname: '作者', post_count: 1, isFollowing: true, isMutual: true, buttonType: 'mutual' }),
    ]);
    expect((await call('DELETE', `/api/users/${author.userId}/follow`, undefined, fan.token)).body.data).toEqual({ followed: false, isMutual: false, buttonType: 'back' });
    expect((await call<{ following: { user_id: string }[] }>('GET', `/api/users/${author.userId}/following`)).body.data.following.map((item) => item.user_id)).toEqual([fan.userId]);
    expect(await stats(fan.userId)).toMatchObject({ follow_count: 0, fans_count: 1 });
  });

  it('refuses through the gateway: oneself, an unknown user, no login, over 100 ids', async () => {
    const me = await register('拒绝');
    await waitFor('social to learn the user', async () => (await stats(me.userId)) !== null, 60_000, 250);
    expect((await call('POST', `/api/users/${me.userId}/follow`, undefined, me.token)).body).toMatchObject({ code: 400, message: '不能关注自己' });
    expect((await call('POST', '/api/users/nobody_at_all/follow', undefined, me.token)).body).toMatchObject({ code: 404, message: '用户不存在' });
    expect((await call('GET', '/api/users/nobody_at_all/card')).status).toBe(404);
    expect((await call('DELETE', `/api/users/${me.userId}/follow`)).status).toBe(401);
    const ids = Array.from({ length: 101 }, (_, i) => `u${i}`).join(',');
    expect((await call('GET', `/api/users/follow-status?ids=${ids}`, undefined, me.token)).status).toBe(400);
  });
});
