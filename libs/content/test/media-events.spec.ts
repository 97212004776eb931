import { mediaImageProcessed, mediaVideoProcessed } from '@shiliu/contracts';
import { ContentTestApp, type PostData, type TestUser } from './content-test-app';

describe('content and media: drafts announced, media.video.processed followed', () => {
  let app: ContentTestApp;
  let author: TestUser;
  let other: TestUser;

  beforeAll(async () => {
    app = await ContentTestApp.start();
    author = await app.user();
    other = await app.user();
  });

  afterAll(async () => {
    await app?.close();
  });

  async function videoNote(user: TestUser, video: string, isDraft = false): Promise<number> {
    const answer = await app.call<PostData>('POST', '/api/posts', {
      token: user.token,
      body: { title: '社团招新', content: '欢迎加入', category_id: 6, type: 2, is_draft: isDraft, video: { url: video, name: 'club.avi' } },
    });
    expect(answer.status).toBe(200);
    return answer.body.data.id;
  }

  it('switches the uploader\'s notes and drafts to the playable video and its cover, and announces published ones', async () => {
    const source = await app.video();
    const note = await videoNote(author, source);
    const draft = await videoNote(author, source, true);
    const someoneElses = await videoNote(other, source);
    const before = (await app.events('post.updated')).length;
    // Saving a draft is announced (media keeps the draft's uploads from the unused-upload sweep).
    expect((await app.events('post.draft.saved')).map((event) => (event.payload as { post: { id: number; video_url: string } }).post)).toEqual([
      expect.objectContaining({ id: draft, video_url: source }),
    ]);

    await app.deliver(mediaVideoProcessed.type, {
      owner_id: author.id,
      source_url: source,
      video_url: '/api/files/videos/abc.mp4',
      cover_url: '/api/files/covers/abc.jpg',
      duration_seconds: 12,
      width: 1280,
      height: 720,
    });

    for (const id of [note, draft]) {
      const { body } = await app.call<PostData>('GET', `/api/posts/${id}`, { token: author.token });
      expect(body.data).toMatchObject({ video_url: '/api/files/videos/abc.mp4', cover_url: '/api/files/covers/abc.jpg', videos: [{ url: '/api/files/videos/abc.mp4', cover_url: '/api/files/covers/abc.jpg' }] });
    }
    const untouched = await app.call<PostData>('GET', `/api/posts/${someoneElses}`, { token: other.token });
    expect(untouched.body.data).toMatchObject({ video_url: source });

    const updates = (await app.events('post.updated')).slice(before);
    expect(updates.map((event) => (event.payload as { post: { id: number; video_url: string } }).post)).toEqual([
      expect.objectContaining({ id: note, video_url: '/api/files/videos/abc.mp4', cover_url: '/api/files/covers/abc.jpg' }),
    ]);
  });

  it('switches any student\'s note to the playable video when an administrator uploaded it from the console', async () => {
    const source = await app.video();
    const note = await videoNote(other, source);
    await app.deliver(mediaVideoProcessed.type, {
      owner_id: -1,
      source_url: source,
      video_url: '/api/files/videos/from-console.mp4',
      cover_url: '/api/files/covers/from-console.jpg',
      duration_seconds: 3,
      width: 640,
      height: 360,
    });
    const { body } = await app.call<PostData>('GET', `/api/posts/${note}`, { token: other.token });
    expect(body.data).toMatchObject({ video_url: '/api/files/videos/from-console.mp4', cover_url: '/api/files/covers/from-console.jpg' });
  });

  const details = (url: string) => ({ owner_id: author.id, url, width: 1200, height: 900, blurhash: 'LEHV6nWB2yk8pyo0adR*.7kCMdnj', thumbnail_url: url.replace(/\.png$/, '.thumb.webp') });

  it('gives notes the size, blurhash and thumbnail media announced, whichever came first', async () => {
    const early = await app.image(1200, 900);
    await app.deliver(mediaImageProcessed.type, details(early));
    const late = await app.image(1200, 900);
    const form = { title: '占位预览', content: '先模糊后清晰', category_id: 1, type: 1 };
    const first = (await app.call<PostData>('POST', '/api/posts', { token: author.token, body: { ...form, images: [early] } })).body.data;
    const second = (await app.call<PostData>('POST', '/api/posts', { token: author.token, body: { ...form, images: [late] } })).body.data;
    expect(second).toMatchObject({ blurhash: null, thumbnail_url: null, aspectRatio: 1.3333 });

    await app.deliver(mediaImageProcessed.type, details(late));
    for (const [id, url] of [[first.id, early], [second.id, late]] as const) {
      const { body } = await app.call<PostData>('GET', `/api/posts/${id}`);
      expect(body.data).toMatchObject({ images: [url], aspectRatio: 1.3333, blurhash: details(url).blurhash, thumbnail_url: details(url).thumbnail_url });
    }
    const feed = await app.call<{ posts: PostData[] }>('GET', '/api/posts?limit=50');
    expect(feed.body.data.posts.find((post) => post.id === first.id)).toMatchObject({ blurhash: details(early).blurhash, thumbnail_url: details(early).thumbnail_url });
  });
});
