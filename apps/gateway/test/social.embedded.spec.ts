import { randomUUID } from 'node:crypto';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { contentService } from '@shiliu/content';
import { type EventEnvelope, userRegistered } from '@shiliu/contracts';
import { InProcessUpstream, mergeOpenApi } from '@shiliu/gateway';
import { audienceClaim, createServiceApp, type ServiceApp, type ServiceName, TOKEN_ISSUER } from '@shiliu/platform';
import { testServiceRuntime, waitFor } from '@shiliu/platform/testing';
import { socialService } from '@shiliu/social';
import { importPKCS8, SignJWT } from 'jose';
import sharp from 'sharp';
import { testGateway } from './test-gateway';

interface Envelope<T> {
  code: number;
  message: string;
  data: T;
}
type Stats = Record<'follow_count' | 'fans_count' | 'post_count' | 'like_count' | 'collect_count' | 'likes_and_collects', number>;

/**
 * Social in the embedded default: content and social modules behind the embedded gateway, events carried by the
 * in-process bus from content's outbox to social's handlers. Every social call answers through the gateway's routes.
 */
describe('social in embedded mode (gateway → modules in process, in-process events)', () => {
  const suffix = randomUUID().replace(/-/g, '').slice(0, 8);
  let content: ServiceApp;
  let social: ServiceApp;
  let gateway: NestExpressApplication;
  let base: string;
  let runtime: Awaited<ReturnType<typeof testServiceRuntime>>;
  const users: { id: number; userId: string; token: string }[] = [];

  const call = async <T>(method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: Envelope<T> }> => {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (token) headers.authorization = `Bearer ${token}`;
    const answer = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: answer.status, body: (await answer.json()) as Envelope<T> };
  };
  const stats = async (userId: string): Promise<Stats> => (await call<Stats>('GET', `/api/users/${userId}/stats`)).body.data;

  beforeAll(async () => {
    runtime = await testServiceRuntime();
    content = await createServiceApp({ ...contentService, name: `content_e_${suffix}` as ServiceName, seed: undefined }, runtime);
    social = await createServiceApp({ ...socialService, name: `social_e_${suffix}` as ServiceName }, runtime);
    // As the embedded host does: relays start once every consumer listens.
    await content.relay.start();
    await social.relay.start();
    const handler = (service: ServiceApp) => service.handler;
    gateway = await testGateway({
      mode: 'embedded',
      upstream: new InProcessUpstream({ content: handler(content), social: handler(social) }),
      revocations: runtime.revocations,
      probe: async () => ({ content: 'up', social: 'up' }),
      openApi: async () => mergeOpenApi([content.openApi, social.openApi]),
    });
    base = await gateway.getUrl();
    const key = await importPKCS8(runtime.keys.privateKeyPem, 'EdDSA');
    for (const n of [1, 2]) {
      const id = 9000 + n;
      const userId = `emb_${suffix}_${n}`;
      const envelopeId = randomUUID();
      const registered: EventEnvelope = {
        id: envelopeId, type: userRegistered.type, version: 1, occurredAt: new Date().toISOString(), actor: null, correlationId: envelopeId, causationId: envelopeId,
        payload: { user: { id, user_id: userId, nickname: n === 1 ? '粉丝' : '作者', avatar: '', bio: '', location: '', verified: 0 } },
      };
      await runtime.bus.deliver(registered);
      const token = await new SignJWT({ uid: userId, sid: randomUUID() }).setProtectedHeader({ alg: 'EdDSA' }).setSubject(String(id)).setIssuer(TOKEN_ISSUER)
        .setAudience(audienceClaim.user).setIssuedAt().setExpirationTime('1h').sign(key);
      users.push({ id, userId, token });
    }
  });

  afterAll(async () => {
    await gateway?.close();
    for (const service of [social, content]) {
      await service?.dataSource.query(`DROP SCHEMA IF EXISTS "${service.dataSource.driver.schema}" CASCADE`).catch(() => undefined);
      await service?.close();
    }
  });

  it("answers every social call through the gateway; a follow moves both users' counters, a like in content the author's", async () => {
    const [fan, author] = users;
    expect((await call('POST', `/api/users/${author.userId}/follow`, undefined, fan.token)).body).toMatchObject({ code: 200, data: { buttonType: 'unfollow' } });
    expect(await stats(fan.userId)).toMatchObject({ follow_count: 1 });
    expect(await stats(author.userId)).toMatchObject({ fans_count: 1 });
    expect((await call('GET', `/api/users/follow-status?ids=${fan.userId}`, undefined, author.token)).body.data).toEqual({ statuses: [{ user_id: fan.userId, followed: false, isMutual: false, buttonType: 'back' }] });
    expect((await call('GET', `/api/users/${fan.userId}/follow-status`, undefined, author.token)).body.data).toEqual({ followed: false, isMutual: false, buttonType: 'back' });

    const key = `images/social-embedded/${randomUUID()}.png`;
    await runtime.objectStorage.put(key, await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 9, g: 9, b: 9 } } }).png().toBuffer(), 'image/png');
    const created = await call<{ id: number }>('POST', '/api/posts', { title: '进程内的笔记', content: '<p>赞</p>', category_id: 1, type: 1, images: [`/api/files/${key}`], tags: [] }, author.token);
    expect(created.status).toBe(200);
    expect((await call('POST', '/api/likes', { target_type: 1, target_id: created.body.data.id }, fan.token)).status).toBe(200);
    await waitFor('the like to reach social through the in-process bus', async () => (await stats(author.userId)).like_count === 1, 30_000, 100);
    expect(await stats(author.userId)).toEqual({ follow_count: 0, fans_count: 1, post_count: 1, like_count: 1, collect_count: 0, likes_and_collects: 1 });
    expect((await call('GET', `/api/users/${author.userId}/card`, undefined, fan.token)).body.data).toMatchObject({ likeAndCollectCount: 1, isFollowing: true, images: [expect.stringContaining(key)] });

    for (const kind of ['following', 'followers', 'mutual-follows']) expect((await call('GET', `/api/users/${fan.userId}/${kind}`, undefined, fan.token)).status).toBe(200);
    expect((await call('DELETE', `/api/users/${author.userId}/follow`, undefined, fan.token)).body.data).toEqual({ followed: false, isMutual: false, buttonType: 'follow' });
    expect(await stats(author.userId)).toMatchObject({ fans_count: 0 });
  });

  it('refuses through the gateway: oneself, an unknown user, no login, over 100 ids', async () => {
    const [me] = users;
    expect((await call('POST', `/api/users/${me.userId}/follow`, undefined, me.token)).body).toMatchObject({ code: 400, message: '不能关注自己' });
    expect((await call('GET', '/api/users/nobody_at_all/stats')).body).toMatchObject({ code: 404, message: '用户不存在' });
    expect((await call('POST', `/api/users/${me.userId}/follow`)).status).toBe(401);
    const ids = Array.from({ length: 101 }, (_, i) => `u${i}`).join(',');
    expect((await call('GET', `/api/users/follow-status?ids=${ids}`)).status).toBe(400);
  });
});
