import { mediaVideoProcessed } from '@shiliu/contracts';
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
});
