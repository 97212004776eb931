import { randomUUID } from 'node:crypto';
import { createServiceApp, MinioStorage, type ObjectStorage, type ServiceApp, type ServiceName, type ServiceRuntime } from '@shiliu/platform';
import { requireEnv, signUserToken, testServiceRuntime } from '@shiliu/platform/testing';
import type { EventEnvelope } from '@shiliu/contracts';
import { Client } from 'minio';
import { mediaService } from '../src';

export interface Answer<T = unknown> {
  status: number;
  body: { code: number; message: string; data: T };
}

/** One part of a multipart body. */
export interface Part {
  field: string;
  name: string;
  body: Buffer;
  type?: string;
}

/** A bucket of its own on the local MinIO, emptied and removed by `drop`. */
export class TestBucket {
  readonly name = `media-t-${randomUUID().slice(0, 12)}`;
  readonly client: Client;
  readonly storage: MinioStorage;

  constructor() {
    const url = new URL(requireEnv('S3_ENDPOINT'));
    const accessKey = requireEnv('S3_ACCESS_KEY');
    const secretKey = requireEnv('S3_SECRET_KEY');
    this.client = new Client({ endPoint: url.hostname, port: Number(url.port), useSSL: false, accessKey, secretKey });
    this.storage = new MinioStorage({ endpoint: url.origin, accessKey, secretKey, bucket: this.name });
  }

  async keys(): Promise<string[]> {
    if (!(await this.client.bucketExists(this.name))) return [];
    const keys: string[] = [];
    for await (const item of this.client.listObjectsV2(this.name, '', true)) keys.push((item as { name: string }).name);
    return keys.sort();
  }

  async drop(): Promise<void> {
    const keys = await this.keys();
    if (keys.length > 0) await this.client.removeObjects(this.name, keys);
    if (await this.client.bucketExists(this.name)) await this.client.removeBucket(this.name);
  }
}

/**
 * The media service on real PostgreSQL (a schema of its own per test file) and its own bucket on the real MinIO.
 * Without Redis, video jobs run in this process as in embedded mode; with it, they go to BullMQ.
 */
export class MediaTestApp {
  private constructor(
    readonly service: ServiceApp,
    readonly base: string,
    readonly bucket: TestBucket,
    readonly schema: string,
    readonly runtime: Awaited<ReturnType<typeof testServiceRuntime>>,
  ) {}

  static async start(overrides: Partial<ServiceRuntime> = {}): Promise<MediaTestApp> {
    const schema = `media_t_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
    const bucket = new TestBucket();
    const runtime = await testServiceRuntime({ objectStorage: bucket.storage, ...overrides });
    const service = await createServiceApp({ ...mediaService, name: schema as ServiceName }, runtime);
    await service.app.listen(0, '127.0.0.1');
    return new MediaTestApp(service, await service.app.getUrl(), bucket, schema, runtime);
  }

  get storage(): ObjectStorage {
    return this.bucket.storage;
  }

  async close(): Promise<void> {
    await this.service.dataSource.query(`DROP SCHEMA IF EXISTS "${this.schema}" CASCADE`).catch(() => undefined);
    await this.service.close();
    await this.bucket.drop();
  }

  token(id = 1001, userId = `user_${id}`): Promise<string> {
    return signUserToken(this.runtime.keys, id, userId);
  }

  async upload<T = unknown>(path: string, parts: Part[], token?: string | null): Promise<Answer<T>> {
    const form = new FormData();
    for (const part of parts) form.append(part.field, new Blob([part.body], { type: part.type ?? 'application/octet-stream' }), part.name);
    const headers: Record<string, string> = {};
    const bearer = token === undefined ? await this.token() : token;
    if (bearer) headers.authorization = `Bearer ${bearer}`;
    const response = await fetch(`${this.base}${path}`, { method: 'POST', body: form, headers });
    return { status: response.status, body: (await response.json()) as Answer<T>['body'] };
  }

  async call<T = unknown>(method: string, path: string, token?: string): Promise<Answer<T>> {
    const response = await fetch(`${this.base}${path}`, { method, headers: token ? { authorization: `Bearer ${token}` } : {} });
    return { status: response.status, body: (await response.json()) as Answer<T>['body'] };
  }

  /** The bytes served at a URL the service handed out. */
  async fetchFile(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; body: Buffer }> {
    const response = await fetch(`${this.base}${url}`, { headers });
    return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
  }

  /** Delivers an event as the bus would (handled once, through the inbox). */
  async deliver<T>(type: string, payload: T): Promise<void> {
    const id = randomUUID();
    const envelope: EventEnvelope<T> = { id, type, version: 1, occurredAt: new Date().toISOString(), actor: null, correlationId: id, causationId: id, payload };
    await this.runtime.bus.deliver(envelope);
  }

  query<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    return this.service.dataSource.query(sql, params);
  }
}
