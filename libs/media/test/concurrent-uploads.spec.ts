import { mkdtempSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { LocalDirectoryStorage } from '@shiliu/platform';
import { SHOWN_WIDTHS } from '../src/images/image-processor';
import { image } from './media-fixtures';
import { MediaTestApp } from './media-test-app';

/** Every file under a directory, as object keys. */
async function filesUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .sort();
}

/**
 * Issue 35: the same bytes uploaded at once (a double click, a retry, two students sharing one picture) are one
 * object, and every upload of them succeeds, in both object stores.
 */
describe.each(['MinIO', 'local directory'] as const)('the same image uploaded eight times at once (%s)', (store) => {
  let app: MediaTestApp;
  const directory = mkdtempSync(join(tmpdir(), 'shiliu-media-files-'));

  beforeAll(async () => {
    app = await MediaTestApp.start(store === 'local directory' ? { objectStorage: new LocalDirectoryStorage(directory) } : {});
  });

  afterAll(async () => {
    await app?.close();
    await rm(directory, { recursive: true, force: true });
  });

  const storedKeys = () => (store === 'MinIO' ? app.bucket.keys() : filesUnder(directory));

  it('answers every upload with the one stored image, five rounds over', async () => {
    for (let round = 0; round < 5; round++) {
      const bytes = await image('png', 120 + round, 80);
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => app.upload<{ url: string; thumbnailUrl: string }>('/api/upload/single', [{ field: 'file', name: `同一张${round}.png`, body: bytes }])),
      );
      expect(answers.map((answer) => `${answer.status} ${answer.body.message}`)).toEqual(Array(8).fill('200 success'));
      const urls = new Set(answers.map((answer) => answer.body.data.url));
      expect(urls.size).toBe(1);
      const { url, thumbnailUrl } = answers[0].body.data;
      const served = await app.fetchFile(url);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/png');
      expect((await app.fetchFile(thumbnailUrl)).status).toBe(200);
    }
    // Five images with their thumbnails and shown widths, nothing half-written left beside them.
    const keys = await storedKeys();
    expect(keys).toHaveLength(5 * (2 + SHOWN_WIDTHS.length));
    expect(keys.every((key) => /^images\/[0-9a-f]{64}\.(png|thumb\.webp|w\d+\.webp)$/.test(key))).toBe(true);
    expect(await app.query(`SELECT count(*)::int AS "rows", count(DISTINCT "key")::int AS "keys" FROM "uploads"`)).toEqual([{ rows: keys.length, keys: keys.length }]);
  });
});
