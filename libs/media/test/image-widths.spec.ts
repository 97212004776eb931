import { postPublished, type PostSnapshot } from '@shiliu/contracts';
import { fileUrl, objectKeyOf } from '@shiliu/platform';
import sharp from 'sharp';
import { SHOWN_WIDTHS, widthKey } from '../src/images/image-processor';
import { ImageWidthsBackfill } from '../src/images/image-widths.backfill';
import { image } from './media-fixtures';
import { MediaTestApp } from './media-test-app';

function note(id: number, images: string[]): PostSnapshot {
  return {
    id,
    author_id: 3001,
    author_user_id: 'user_3001',
    title: '笔记',
    content_text: '',
    category_id: 1,
    category_title: 'study',
    type: 1,
    tags: [],
    images,
    cover_url: null,
    video_url: null,
    created_at: new Date().toISOString(),
  };
}

describe('images at the widths shown (media service, real MinIO and PostgreSQL)', () => {
  let app: MediaTestApp;

  beforeAll(async () => {
    app = await MediaTestApp.start();
  });

  afterAll(async () => {
    await app?.close();
  });

  const backfill = () => app.service.app.get(ImageWidthsBackfill).pass();

  /** The width and format of what the files route serves at the URL of `key`'s version `width`. */
  async function served(key: string, width: number): Promise<{ status: number; type: string | null; width?: number; format?: string }> {
    const answer = await app.fetchFile(fileUrl(widthKey(key, width)));
    if (answer.status !== 200) return { status: answer.status, type: null };
    const { width: shown, format } = await sharp(answer.body).metadata();
    return { status: 200, type: answer.headers.get('content-type'), width: shown, format };
  }

  it('keeps a WebP version at each shown width of an uploaded image, tied to it for clean-up', async () => {
    const answer = await app.upload<{ url: string }>('/api/upload/single', [{ field: 'file', name: '风景.jpg', body: await image('jpeg', 1600, 1200) }]);
    expect(answer.status).toBe(200);
    const key = objectKeyOf(answer.body.data.url)!;

    for (const width of SHOWN_WIDTHS) expect(await served(key, width)).toEqual({ status: 200, type: 'image/webp', width, format: 'webp' });
    const rows = await app.query<{ key: string; kind: string }>(`SELECT "key", "kind" FROM "uploads" WHERE "source_key" = $1 ORDER BY "key"`, [key]);
    expect(rows.map((row) => row.key)).toEqual(expect.arrayContaining(SHOWN_WIDTHS.map((width) => widthKey(key, width))));
    // Settled with the upload: no backfill pass reads it again.
    expect(await app.query(`SELECT "outcome" FROM "image_widths" WHERE "key" = $1`, [key])).toEqual([{ outcome: 'made' }]);
  });

  it('keeps no larger copy of an image narrower than a width, and none of an animated GIF', async () => {
    const narrow = objectKeyOf((await app.upload<{ url: string }>('/api/upload/single', [{ field: 'file', name: 'n.png', body: await image('png', 300, 400) }])).body.data.url)!;
    expect((await served(narrow, 800)).width).toBe(300);

    const gif = objectKeyOf((await app.upload<{ url: string }>('/api/upload/single', [{ field: 'file', name: 'g.gif', body: await image('gif', 500, 400) }])).body.data.url)!;
    expect((await served(gif, 400)).status).toBe(404);
  });

  it('backfills the widths of images stored without them: older uploads, and images named by notes before widths were made', async () => {
    // As libs/content's demo seed stores its pictures: straight into object storage, no upload row; a note used them.
    const demo = ['demo/content/image-01.jpg', 'demo/content/image-02.jpg'];
    for (const key of demo) await app.storage.put(key, await image('jpeg', 800, 600), 'image/jpeg');
    await app.query(`INSERT INTO "upload_uses" ("holder", "key") SELECT 'post:1', unnest($1::text[])`, [demo]);
    // An upload from before widths were made: its row, its object, no widths.
    const older = 'images/older-upload.png';
    await app.storage.put(older, await image('png', 500, 500), 'image/png');
    await app.query(`INSERT INTO "uploads" ("key", "owner_id", "kind", "source_key", "size") VALUES ($1, 3001, 'image', NULL, 1)`, [older]);

    expect(await backfill()).toMatchObject({ made: 3, unreadable: 0 });
    for (const key of [...demo, older]) {
      for (const width of SHOWN_WIDTHS) expect(await served(key, width)).toMatchObject({ status: 200, type: 'image/webp', format: 'webp' });
    }
    expect(await served(demo[0], 400)).toMatchObject({ width: 400 });
    // The older upload's widths go with it: they are rows of its owner, made from it.
    const rows = await app.query<{ key: string; owner_id: string }>(`SELECT "key", "owner_id" FROM "uploads" WHERE "source_key" = $1 ORDER BY "key"`, [older]);
    expect(rows).toEqual(SHOWN_WIDTHS.map((width) => ({ key: widthKey(older, width), owner_id: '3001' })).sort((a, b) => a.key.localeCompare(b.key)));
    // Done once, as the database records: a later pass, in this process or another, has nothing left to look at.
    expect(await backfill()).toMatchObject({ checked: 0, made: 0 });
    expect(await app.query(`SELECT "key", "outcome" FROM "image_widths" WHERE "key" = ANY($1::text[]) ORDER BY "key"`, [[...demo, older]])).toEqual(
      [...demo, older].sort().map((key) => ({ key, outcome: 'made' })),
    );
  });

  it('makes the widths of a stored image a note names before the note’s event counts as handled, as the demo seed’s after start-up', async () => {
    const key = 'demo/content/image-03.jpg';
    await app.storage.put(key, await image('jpeg', 640, 640), 'image/jpeg');
    await app.deliver(postPublished.type, { post: note(2, [fileUrl(key)]) });
    expect(await served(key, 400)).toMatchObject({ status: 200, width: 400 });
    expect(await served(key, 800)).toMatchObject({ status: 200, width: 640 });
    expect(await backfill()).toMatchObject({ made: 0 });
  });
});
