import { ContentTestApp, noteForm, type PostData, type TestUser } from './content-test-app';

/** Races between writers: counts stay exact and no two writes deadlock. */
describe('concurrent writes', () => {
  let app: ContentTestApp;
  let author: TestUser;

  beforeAll(async () => {
    app = await ContentTestApp.start();
    author = await app.user();
  });

  afterAll(async () => {
    await app?.close();
  });

  it('keeps a tag’s use_count exact when many notes take it at once', async () => {
    const notes = await Promise.all(Array.from({ length: 16 }, async () => app.call<PostData>('POST', '/api/posts', { token: author.token, body: await noteForm(app, { tags: ['并发'] }) })));
    expect(notes.map((note) => note.status)).toEqual(notes.map(() => 200));
    const [tag] = await app.query<{ use_count: number }>(`SELECT "use_count" FROM "tags" WHERE "name" = '并发'`);
    expect(tag.use_count).toBe(16);
    await Promise.all(notes.slice(0, 10).map((note) => app.call('DELETE', `/api/posts/${note.body.data.id}`, { token: author.token })));
    const [after] = await app.query<{ use_count: number }>(`SELECT "use_count" FROM "tags" WHERE "name" = '并发'`);
    expect(after.use_count).toBe(6);
  });

  it('deletes a note and one of its comments at the same moment without a deadlock', async () => {
    for (let round = 0; round < 10; round++) {
      const note = (await app.call<PostData>('POST', '/api/posts', { token: author.token, body: await noteForm(app) })).body.data;
      const comment = (await app.call<{ id: number }>('POST', '/api/comments', { token: author.token, body: { post_id: note.id, content: '马上删除' } })).body.data;
      const [noteGone, commentGone] = await Promise.all([
        app.call('DELETE', `/api/posts/${note.id}`, { token: author.token }),
        app.call('DELETE', `/api/comments/${comment.id}`, { token: author.token }),
      ]);
      expect(noteGone.status).toBe(200);
      expect([200, 404]).toContain(commentGone.status);
    }
  });

  it('does not hold the note’s row while an edit looks up its new images in object storage', async () => {
    const note = (await app.call<PostData>('POST', '/api/posts', { token: author.token, body: await noteForm(app) })).body.data;
    const newImage = await app.image();
    const stat = app.storage.stat.bind(app.storage);
    let reached!: () => void;
    const storageReached = new Promise<void>((resolve) => (reached = resolve));
    let release!: () => void;
    const storageReleased = new Promise<void>((resolve) => (release = resolve));
    // Object storage that is slow just now: it answers only once the test lets it.
    app.storage.stat = async (key) => {
      reached();
      await storageReleased;
      return stat(key);
    };
    try {
      const editing = app.call('PUT', `/api/posts/${note.id}`, { token: author.token, body: { images: [newImage] } });
      await storageReached;
      const liked = await app.call<{ likeCount: number }>('POST', '/api/likes', { token: author.token, body: { target_type: 1, target_id: note.id } });
      expect(liked.status).toBe(200);
      release();
      expect((await editing).status).toBe(200);
    } finally {
      app.storage.stat = stat;
    }
  });
});
