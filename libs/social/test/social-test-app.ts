import { randomUUID } from 'node:crypto';
import { type EventEnvelope, type PostSnapshot, userRegistered, type UserProfileSnapshot } from '@shiliu/contracts';
import { audienceClaim, createServiceApp, type InProcessEventBus, type ServiceApp, type ServiceName, testServiceRuntime, TOKEN_ISSUER } from '@shiliu/platform';
import { importPKCS8, type KeyLike, SignJWT } from 'jose';
import { socialService } from '../src';

export interface TestUser {
  id: number;
  userId: string;
  nickname: string;
  token: string;
}

export interface Answer<T = unknown> {
  status: number;
  body: { code: number; message: string; data: T };
}

/**
 * The social service on real PostgreSQL, in a schema of its own per test file, fed auth's and content's events
 * through the in-process bus as those services would send them.
 */
export class SocialTestApp {
  private userSeq = 0;

  private constructor(
    readonly service: ServiceApp,
    readonly base: string,
    readonly bus: InProcessEventBus,
    readonly schema: string,
    private readonly signingKey: KeyLike,
  ) {}

  static async start(): Promise<SocialTestApp> {
    const schema = `social_t_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
    const runtime = await testServiceRuntime();
    const service = await createServiceApp({ ...socialService, name: schema as ServiceName }, runtime);
    await service.app.listen(0, '127.0.0.1');
    return new SocialTestApp(service, await service.app.getUrl(), runtime.bus, schema, await importPKCS8(runtime.keys.privateKeyPem, 'EdDSA'));
  }

  async close(): Promise<void> {
    await this.service.dataSource.query(`DROP SCHEMA IF EXISTS "${this.schema}" CASCADE`).catch(() => undefined);
    await this.service.close();
  }

  /** An envelope as a producer would write it; `occurredAt` defaults to now. */
  envelope<T>(type: string, payload: T, occurredAt = new Date()): EventEnvelope<T> {
    const id = randomUUID();
    return { id, type, version: 1, occurredAt: occurredAt.toISOString(), actor: null, correlationId: id, causationId: id, payload };
  }

  /** Delivers an event as the bus would (handled once, through the inbox). */
  async deliver<T>(type: string, payload: T, occurredAt?: Date): Promise<EventEnvelope<T>> {
    const envelope = this.envelope(type, payload, occurredAt);
    await this.bus.deliver(envelope);
    return envelope;
  }

  /** A user as auth would register one: the user.registered event, then a token for them. */
  async user(overrides: Partial<UserProfileSnapshot> = {}): Promise<TestUser> {
    const n = ++this.userSeq;
    const profile: UserProfileSnapshot = {
      id: 1000 + n,
      user_id: `user_${n}`,
      nickname: `用户${n}`,
      avatar: `/api/files/avatars/${n}.png`,
      bio: `简介${n}`,
      location: '上海',
      verified: 0,
      ...overrides,
    };
    await this.deliver(userRegistered.type, { user: profile });
    return { id: profile.id, userId: profile.user_id, nickname: profile.nickname, token: await this.token(profile.id, profile.user_id) };
  }

  token(id: number, userId: string): Promise<string> {
    return new SignJWT({ uid: userId, sid: randomUUID() })
      .setProtectedHeader({ alg: 'EdDSA' })
      .setSubject(String(id))
      .setIssuer(TOKEN_ISSUER)
      .setAudience(audienceClaim.user)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(this.signingKey);
  }

  async call<T = unknown>(method: string, path: string, options: { token?: string } = {}): Promise<Answer<T>> {
    const headers: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {};
    const response = await fetch(`${this.base}${path}`, { method, headers });
    return { status: response.status, body: (await response.json()) as Answer<T>['body'] };
  }

  query<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    return this.service.dataSource.query(sql, params);
  }

  /** The events the service wrote to its outbox, oldest first. */
  async events(type?: string): Promise<(EventEnvelope & { topic: string; key: string })[]> {
    const rows = await this.query<{ envelope: EventEnvelope; topic: string; key: string }>(
      `SELECT "envelope", "topic", "key" FROM "outbox" ${type ? `WHERE "type" = $1` : ''} ORDER BY "seq"`,
      type ? [type] : [],
    );
    return rows.map((row) => ({ ...row.envelope, topic: row.topic, key: row.key }));
  }
}

let postSeq = 0;

/** A published note's snapshot as content would announce it. */
export function postSnapshot(author: { id: number; userId: string }, overrides: Partial<PostSnapshot> = {}): PostSnapshot {
  const id = 5000 + ++postSeq;
  return {
    id,
    author_id: author.id,
    author_user_id: author.userId,
    title: `笔记${id}`,
    content_text: '',
    category_id: 1,
    category_title: 'study',
    type: 1,
    tags: [],
    images: [`/api/files/images/${id}.png`],
    cover_url: null,
    video_url: null,
    created_at: new Date().toISOString(),
    ...overrides,
  };
}
