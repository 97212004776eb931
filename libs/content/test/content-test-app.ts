import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EventEnvelope, userRegistered, type UserProfileSnapshot } from '@shiliu/contracts';
import {
  audienceClaim,
  createLogger,
  createServiceApp,
  generateTokenKeyPair,
  InProcessEventBus,
  LocalDirectoryStorage,
  MemoryRevocationList,
  requireEnv,
  type ServiceApp,
  type ServiceName,
  TOKEN_ISSUER,
  TokenVerifier,
} from '@shiliu/platform';
import type { Redis } from 'ioredis';
import { importPKCS8, type KeyLike, SignJWT } from 'jose';
import { Client } from 'pg';
import sharp from 'sharp';
import { contentService } from '../src';

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
 * The content service on real PostgreSQL, in a schema of its own per test file (so runs never meet each other
 * nor a CI run on the same database), fed user events through the in-process bus as auth would send them.
 */
export class ContentTestApp {
  private userSeq = 0;

  private constructor(
    readonly service: ServiceApp,
    readonly base: string,
    readonly bus: InProcessEventBus,
    readonly storage: LocalDirectoryStorage,
    readonly schema: string,
    readonly revocations: MemoryRevocationList,
    private readonly signingKey: KeyLike,
  ) {}

  /** With Redis for the short-lived markers and tallies, as in distributed mode; in memory otherwise, as embedded. */
  static async start(options: { redis?: Redis } = {}): Promise<ContentTestApp> {
    const schema = `content_t_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
    const keys = await generateTokenKeyPair();
    const bus = new InProcessEventBus();
    const storage = new LocalDirectoryStorage(mkdtempSync(join(tmpdir(), 'shiliu-content-')));
    const revocations = new MemoryRevocationList();
    const service = await createServiceApp(
      { ...contentService, name: schema as ServiceName, seed: undefined },
      {
        databaseUrl: requireEnv('DATABASE_URL'),
        tokenVerifier: await TokenVerifier.fromPem(keys.publicKeyPem),
        revocations,
        objectStorage: storage,
        events: { kind: 'in-process', bus },
        logger: createLogger('test', 'silent'),
        redis: options.redis ?? null,
      },
    );
    await service.app.listen(0, '127.0.0.1');
    return new ContentTestApp(service, await service.app.getUrl(), bus, storage, schema, revocations, await importPKCS8(keys.privateKeyPem, 'EdDSA'));
  }

  /** Closes the service first (it writes its last view tallies), then drops its schema. */
  async close(): Promise<void> {
    await this.service.close();
    const client = new Client({ connectionString: requireEnv('DATABASE_URL') });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${this.schema}" CASCADE`);
    await client.end();
  }

  /** Delivers an event as the bus would (handled once, through the inbox). */
  async deliver<T>(type: string, payload: T): Promise<EventEnvelope<T>> {
    const id = randomUUID();
    const envelope: EventEnvelope<T> = { id, type, version: 1, occurredAt: new Date().toISOString(), actor: null, correlationId: id, causationId: id, payload };
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
      bio: '用户没有任何简介',
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

  async call<T = unknown>(method: string, path: string, options: { token?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${this.base}${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
    return { status: response.status, body: (await response.json()) as Answer<T>['body'] };
  }

  /** A real image in the object store, as the upload calls will put them there; answers its URL. */
  async image(width = 600, height = 800, key = `images/test/${randomUUID()}.png`): Promise<string> {
    const png = await sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 90 } } }).png().toBuffer();
    await this.storage.put(key, png, 'image/png');
    return `/api/files/${key}`;
  }

  async video(key = `videos/test/${randomUUID()}.mp4`): Promise<string> {
    await this.storage.put(key, Buffer.from('not really a video, but stored as one'), 'video/mp4');
    return `/api/files/${key}`;
  }

  query<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    return this.service.dataSource.query(sql, params);
  }

  /** The events the service wrote to its outbox, oldest first. */
  async events(type?: string): Promise<EventEnvelope[]> {
    const rows = await this.query<{ envelope: EventEnvelope; topic: string; key: string }>(
      `SELECT "envelope", "topic", "key" FROM "outbox" ${type ? `WHERE "type" = $1` : ''} ORDER BY "seq"`,
      type ? [type] : [],
    );
    return rows.map((row) => ({ ...row.envelope, topic: row.topic, key: row.key }) as EventEnvelope & { topic: string; key: string });
  }
}

export interface PostData {
  id: number;
  title: string;
  content?: string;
  is_draft: 0 | 1;
  like_count: number;
  collect_count: number;
  comment_count: number;
  view_count: number;
  liked: boolean;
  collected: boolean;
  images: string[];
  tags: { id: number; name: string }[];
  [field: string]: unknown;
}

export interface PostPageData {
  posts: PostData[];
  pagination: { page: number; limit: number; total: number; pages: number; snapshot: string };
}

/** A valid note form with one fresh image; fields can be replaced. */
export async function noteForm(app: ContentTestApp, overrides: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  return { title: '图书馆的早晨', content: '<p>七点的图书馆很安静。</p>', category_id: 1, type: 1, images: [await app.image()], tags: ['学习'], ...overrides };
}
