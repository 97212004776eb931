import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { readFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { LocalDirectoryStorage, MinioStorage, type ObjectStorage } from '../src';
import { requireEnv } from '../src/testing';

/** Both object-store adapters honour one contract: the local directory (embedded) and MinIO (distributed). */
describe.each([
  ['local directory', () => new LocalDirectoryStorage(mkdtempSync(join(tmpdir(), 'shiliu-store-')))],
  [
    'MinIO',
    () =>
      new MinioStorage({
        endpoint: requireEnv('S3_ENDPOINT'),
        accessKey: requireEnv('S3_ACCESS_KEY'),
        secretKey: requireEnv('S3_SECRET_KEY'),
        bucket: 'shiliu-test',
      }),
  ],
])('object storage: %s', (_name, create: () => ObjectStorage) => {
  let storage: ObjectStorage;
  const key = `tests/${randomUUID()}/note.txt`;

  beforeAll(() => {
    storage = create();
  });

  it('stores an object from a buffer and reads it back whole and by range', async () => {
    await storage.put(key, Buffer.from('拾柳 campus notes'), 'text/plain');
    expect(await storage.stat(key)).toEqual({ size: Buffer.byteLength('拾柳 campus notes'), contentType: 'text/plain' });
    expect(await text(await storage.read(key))).toBe('拾柳 campus notes');
    expect(await text(await storage.read(key, { start: 7, end: 12 }))).toBe('campus');
  });

  it('stores an object from a stream', async () => {
    const streamed = `tests/${randomUUID()}/streamed.txt`;
    await storage.put(streamed, Readable.from(['a', 'b', 'c']), 'text/plain');
    expect(await text(await storage.read(streamed))).toBe('abc');
  });

  it('tells where another program can read an object in place, by range too', async () => {
    const location = await storage.readLocation(key, 60);
    if (location.startsWith('http')) {
      expect(await (await fetch(location)).text()).toBe('拾柳 campus notes');
      const range = await fetch(location, { headers: { range: 'bytes=7-12' } });
      expect(range.status).toBe(206);
      expect(await range.text()).toBe('campus');
    } else {
      expect(isAbsolute(location)).toBe(true);
      expect(await readFile(location, 'utf8')).toBe('拾柳 campus notes');
    }
  });

  it('keeps one whole object when the same key is written eight times at once', async () => {
    const same = `tests/${randomUUID()}/same.txt`;
    const writes = await Promise.allSettled(Array.from({ length: 8 }, () => storage.put(same, Buffer.from('同样的字节'), 'text/plain')));
    expect(writes.filter((write) => write.status === 'rejected')).toEqual([]);
    expect(await text(await storage.read(same))).toBe('同样的字节');
    await storage.remove(same);
  });

  it('answers null for a missing object and forgets a removed one', async () => {
    expect(await storage.stat(`tests/${randomUUID()}/none.txt`)).toBeNull();
    await storage.remove(key);
    expect(await storage.stat(key)).toBeNull();
  });

  it('refuses keys that climb out of the store', async () => {
    await expect(storage.put('../escape.txt', Buffer.from('x'), 'text/plain')).rejects.toThrow('Invalid object key');
    await expect(storage.stat('a//b')).rejects.toThrow('Invalid object key');
  });
});
