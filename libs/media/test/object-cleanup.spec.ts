import { commentCreated, commentDeleted, postDeleted, postDraftSaved, postPublished, type CommentSnapshot, type PostSnapshot, postUpdated, type UserProfileSnapshot, userDeleted, userUpdated } from '@shiliu/contracts';
import { objectKeyOf } from '@shiliu/platform';
import { ObjectCleanupService } from '../src/cleanup/object-cleanup.service';
import { SHOWN_WIDTHS, widthKey } from '../src/images/image-processor';
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

function comment(id: number, postId: number, authorId: number, images: string[]): CommentSnapshot {
  return { id, post_id: postId, post_author_id: 1, author_id: authorId, parent_id: null, reply_to_comment_id: null, reply_to_user_id: null, content_text: '评论', images, created_at: new Date().toISOString() };
}

function profile(id: number, avatar: string): UserProfileSnapshot {
  return { id, user_id: `user_${id}`, nickname: '小柳', avatar, bio: '', location: '', verified: 0 };
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

  const keysOf = (...uploads: Uploaded[]) =>
    uploads.flatMap((u) => [objectKeyOf(u.url)!, objectKeyOf(u.thumbnailUrl)!, ...SHOWN_WIDTHS.map((width) => widthKey(objectKeyOf(u.url)!, width))]).sort();

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
    expect(await sweeper.sweep(new Date(Date.now() + 25 * 3600_000))).toBe(keysOf(orphan).length);
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

  const deleted = (id: number, authorId: number, images: string[]) => ({
    id,
    author_id: authorId,
    was_draft: false,
    like_count: 0,
    collect_count: 0,
    comment_count: 0,
    images,
    video_url: null,
    cover_url: null,
  });

  it('keeps an image while another note, a comment or the avatar of its author still shows it', async () => {
    const shared = await upload(5001, 91);
    await app.deliver(postPublished.type, { post: note(11, 5001, [shared.url]) });
    await app.deliver(postPublished.type, { post: note(12, 5001, [shared.url]) });
    await app.deliver(commentCreated.type, { comment: comment(51, 13, 5001, [shared.url]) });
    await app.deliver(userUpdated.type, { user: profile(5001, shared.url) });

    await app.deliver(postDeleted.type, deleted(11, 5001, [shared.url]));
    await app.deliver(postDeleted.type, deleted(12, 5001, [shared.url]));
    await app.deliver(postDeleted.type, deleted(13, 5002, []));
    expect(await app.bucket.keys()).toEqual(expect.arrayContaining(keysOf(shared)));
    // The avatar was the last to show it.
    await app.deliver(userUpdated.type, { user: profile(5001, '') });
    const keys = await app.bucket.keys();
    for (const key of keysOf(shared)) expect(keys).not.toContain(key);
  });

  it('removes an image an edit took out, a deleted comment\'s images, and a deleted note\'s comments\' images', async () => {
    const [kept, takenOut, inComment, inDeletedComment] = [await upload(5101, 92), await upload(5101, 93), await upload(5102, 94), await upload(5102, 95)];
    await app.deliver(postPublished.type, { post: note(21, 5101, [kept.url, takenOut.url]) });
    await app.deliver(commentCreated.type, { comment: comment(61, 21, 5102, [inComment.url]) });
    await app.deliver(commentCreated.type, { comment: comment(62, 21, 5102, [inDeletedComment.url]) });

    await app.deliver(postUpdated.type, { post: note(21, 5101, [kept.url]) });
    await app.deliver(commentDeleted.type, { id: 62, post_id: 21, post_author_id: 5101, author_id: 5102, parent_id: null, like_count: 0 });
    let keys = await app.bucket.keys();
    expect(keys).toEqual(expect.arrayContaining(keysOf(kept, inComment)));
    for (const key of keysOf(takenOut, inDeletedComment)) expect(keys).not.toContain(key);

    await app.deliver(postDeleted.type, deleted(21, 5101, [kept.url]));
    keys = await app.bucket.keys();
    for (const key of keysOf(kept, inComment)) expect(keys).not.toContain(key);
    expect(await app.query(`SELECT "key" FROM "upload_uses" WHERE "holder" LIKE 'post:21%'`)).toEqual([]);
  });

  it('removes what an administrator uploaded for a note with the note', async () => {
    const answer = await app.upload<Uploaded>('/api/upload/single', [{ field: 'file', name: 'a.png', body: await image('png', 96, 50) }], await app.adminToken(7));
    expect(answer.status).toBe(200);
    const byAdministrator = answer.body.data;
    await app.deliver(postPublished.type, { post: note(31, 5201, [byAdministrator.url]) });
    const sweeper = app.service.app.get(ObjectCleanupService);
    await sweeper.sweep(new Date(Date.now() + 25 * 3600_000));
    expect(await app.bucket.keys()).toEqual(expect.arrayContaining(keysOf(byAdministrator)));

    await app.deliver(postDeleted.type, deleted(31, 5201, [byAdministrator.url]));
    const keys = await app.bucket.keys();
    for (const key of keysOf(byAdministrator)) expect(keys).not.toContain(key);
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
