import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { lookup } from 'mime-types';
import { assertValidObjectKey, type ByteRange, type ObjectInfo, type ObjectStorage } from './object-storage';

/**
 * Objects as files under one directory (embedded mode). A write goes to a temporary file first and is
 * renamed into place, so a reader never sees half an object. The content type follows the key's extension.
 */
export class LocalDirectoryStorage implements ObjectStorage {
  constructor(private readonly root: string) {}

  async put(key: string, body: Buffer | Readable, _contentType: string): Promise<void> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    // A name of its own per write: two writes of one key at once (the same bytes uploaded twice) each rename theirs.
    const temporary = `${path}.${randomUUID()}.tmp`;
    try {
      await pipeline(Buffer.isBuffer(body) ? Readable.from([body]) : body, createWriteStream(temporary));
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  async stat(key: string): Promise<ObjectInfo | null> {
    try {
      const info = await stat(this.pathOf(key));
      return info.isFile() ? { size: info.size, contentType: lookup(key) || 'application/octet-stream' } : null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    return createReadStream(this.pathOf(key), range ? { start: range.start, end: range.end } : {});
  }

  async readLocation(key: string, _validSeconds: number): Promise<string> {
    return resolve(this.pathOf(key));
  }

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  private pathOf(key: string): string {
    assertValidObjectKey(key);
    return join(this.root, key);
  }
}
