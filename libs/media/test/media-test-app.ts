import { randomUUID } from 'node:crypto';
import { MinioStorage, type ObjectStorage, type ServiceRuntime } from '@shiliu/platform';
import { type Answer, requireEnv, ServiceTestApp, type StartedService } from '@shiliu/platform/testing';
import { Client } from 'minio';
import { mediaService } from '../src';

export type { Answer } from '@shiliu/platform/testing';

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
 * The media service as every service's tests start one, with a bucket of its own on the real MinIO. Without Redis,
 * video jobs run in this process as in embedded mode; with it, they go to BullMQ.
 */
export class MediaTestApp extends ServiceTestApp {
  private constructor(started: StartedService, readonly bucket: TestBucket) {
    super(started);
  }

  static async start(overrides: Partial<ServiceRuntime> = {}): Promise<MediaTestApp> {
    const bucket = new TestBucket();
    return new MediaTestApp(await ServiceTestApp.boot(mediaService, { objectStorage: bucket.storage, ...overrides }), bucket);
  }

  get storage(): ObjectStorage {
    return this.bucket.storage;
  }

  override async close(): Promise<void> {
    await super.close();
    await this.bucket.drop();
  }

  /** A token for the user `id`; the uploads' owner unless a test says otherwise. */
  override token(id = 1001, userId = `user_${id}`): Promise<string> {
    return super.token(id, userId);
  }

  async upload<T = unknown>(path: string, parts: Part[], token?: string | null): Promise<Answer<T>> {
    const form = new FormData();
    for (const part of parts) form.append(part.field, new Blob([part.body], { type: part.type ?? 'application/octet-stream' }), part.name);
    const headers: Record<string, string> = {};
    const bearer = token === undefined ? await this.token() : token;
    if (bearer) headers.authorization = `Bearer ${bearer}`;
    const response = await fetch(`${this.base}${path}`, { method: 'POST', body: form, headers });
    return { status: response.status, headers: response.headers, body: (await response.json()) as Answer<T>['body'] };
  }

  /** The bytes served at a URL the service handed out. */
  async fetchFile(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; body: Buffer }> {
    const response = await fetch(`${this.base}${url}`, { headers });
    return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
  }
}
