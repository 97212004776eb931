import type { Readable } from 'node:stream';
import { Client } from 'minio';
import { assertValidObjectKey, type ByteRange, type ObjectInfo, type ObjectStorage } from './object-storage';

export interface MinioSettings {
  endpoint: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
}

/** Objects in one bucket of MinIO or any S3 API (distributed mode). */
export class MinioStorage implements ObjectStorage {
  private readonly client: Client;
  private bucketReady: Promise<void> | null = null;

  constructor(private readonly settings: MinioSettings) {
    const url = new URL(settings.endpoint);
    this.client = new Client({
      endPoint: url.hostname,
      port: Number(url.port) || (url.protocol === 'https:' ? 443 : 80),
      useSSL: url.protocol === 'https:',
      accessKey: settings.accessKey,
      secretKey: settings.secretKey,
    });
  }

  async put(key: string, body: Buffer | Readable, contentType: string): Promise<void> {
    assertValidObjectKey(key);
    await this.ensureBucket();
    await this.client.putObject(this.settings.bucket, key, body, Buffer.isBuffer(body) ? body.length : undefined, {
      'Content-Type': contentType,
    });
  }

  async stat(key: string): Promise<ObjectInfo | null> {
    assertValidObjectKey(key);
    await this.ensureBucket();
    try {
      const info = await this.client.statObject(this.settings.bucket, key);
      const contentType = (info.metaData as Record<string, string | undefined>)['content-type'];
      return { size: info.size, contentType: contentType ?? 'application/octet-stream' };
    } catch (error) {
      if ((error as { code?: string }).code === 'NotFound' || (error as { code?: string }).code === 'NoSuchKey') return null;
      throw error;
    }
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    assertValidObjectKey(key);
    return range
      ? this.client.getPartialObject(this.settings.bucket, key, range.start, range.end - range.start + 1)
      : this.client.getObject(this.settings.bucket, key);
  }

  async readLocation(key: string, validSeconds: number): Promise<string> {
    assertValidObjectKey(key);
    return this.client.presignedGetObject(this.settings.bucket, key, validSeconds);
  }

  async remove(key: string): Promise<void> {
    assertValidObjectKey(key);
    await this.client.removeObject(this.settings.bucket, key);
  }

  private ensureBucket(): Promise<void> {
    this.bucketReady ??= (async () => {
      if (!(await this.client.bucketExists(this.settings.bucket))) await this.client.makeBucket(this.settings.bucket);
    })().catch((error: unknown) => {
      this.bucketReady = null;
      throw error;
    });
    return this.bucketReady;
  }
}
