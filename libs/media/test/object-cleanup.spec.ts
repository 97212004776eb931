import { postDeleted, postDraftSaved, postPublished, type PostSnapshot, userDeleted, userUpdated } from '@shiliu/contracts';
import { objectKeyOf } from '@shiliu/platform';
import { ObjectCleanupService } from '../src/cleanup/object-cleanup.service';
import { image } from './media-fixtures';
import { MediaTestApp } from './media-test-app';

interface Uploaded {
  url: string;
  thumbnailUrl: string;
}

function note(id: number, authorId: number, images: string[]): PostSnapshot {
  return {
    id,
    author_id: authorId,
    author_user_id: `user_${authorId}`,
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

describe('object clean-up (media service, real MinIO)', () => {
  let app: MediaTestApp;

  beforeAll(async () => {
    app = await MediaTestApp.start();
  });

  afterAll(async () => {
    await app?.close();
  });

  async function upload(ownerId: number, picture: number | Buffer): Promise<Uploaded> {
    const body = Buffer.isBuffer(picture) ? picture : await image('png', picture, 50);
    const answer = await app.upload<Uploaded>('/api/upload/single', [{ field: 'file', name: 'a.png', body }], await app.token(ownerId));
    expect(answer.status).toBe(200);
    return answer.body.data;
  }

  const keysOf = (...uploads: Uploaded[]) => uploads.flatMap((u) => [objectKeyOf(u.url)!, objectKeyOf(u.thumbnailUrl)!]).sort();

  it('removes uploads left unattached for a day, and keeps those a note, a draft or an avatar uses', async () => {
    const used = await upload(2001, 61);
    const avatar = await upload(2001, 62);
    const inDraft = await upload(2001, 64);
    const orphan = await upload(2001, 63);
    await app.deliver(postPublished.type, { post: note(1, 2001, [used.url]) });
    await app.deliver(postDraftSaved.type, { post: note(2, 2001, [inDraft.url]) });
    await app.deliver(userUpdated.type, {
      user: { id: 2001, user_id: 'user_2001', nickname: '小柳', avatar: `http://localhost:8080${avatar.url}`, bio: '', location: '', verified: 0 },
    });
    const sweeper = app.service.app.get(ObjectCleanupService);

    expect(await sweeper.sweep(new Date(Date.now() + 23 * 3600_000))).toBe(0);
    expect(await app.bucket.keys()).toEqual(keysOf(used, avatar, inDraft, orphan));
    expect(await sweeper.sweep(new Date(Date.now() + 25 * 3600_000))).toBe(2);
    expect(await app.bucket.keys()).toEqual(keysOf(used, avatar, inDraft));
  });

  it('removes a deleted note\'s images, but not the same bytes another user holds', async () => {
    const mine = await upload(3001, 71);
    const same = await image('png', 72, 50);
    const shared = await upload(3001, same);
    expect((await upload(3002, same)).url).toBe(shared.url);
    const before = await app.bucket.keys();

    await app.deliver(postDeleted.type, {
      id: 9,
      author_id: 3001,
      was_draft: false,
      like_count: 0,
      collect_count: 0,
      comment_count: 0,
      images: [mine.url, shared.url],
      video_url: null,
      cover_url: null,
    });
    const after = await app.bucket.keys();
    expect(before.filter((key) => !after.includes(key))).toEqual(keysOf(mine));
  });

  it('removes every object of a deleted account', async () => {
    const first = await upload(4001, 81);
    const second = await upload(4001, 82);
    const other = await upload(4002, 83);
    await app.deliver(userDeleted.type, { id: 4001, user_id: 'user_4001' });
    const keys = await app.bucket.keys();
    expect(keys).toEqual(expect.arrayContaining(keysOf(other)));
    for (const key of keysOf(first, second)) expect(keys).not.toContain(key);
    expect(await app.query(`SELECT 1 FROM "uploads" WHERE "owner_id" = 4001`)).toEqual([]);
  });
});
