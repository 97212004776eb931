import { ContentTestApp, noteForm, type PostData, type TestUser } from './content-test-app';

interface CommentData {
  id: number;
  content: string;
  liked: boolean;
  replies: CommentData[];
}

interface CommentPage {
  comments: CommentData[];
  pagination: { page: number; limit: number; total: number; pages: number };
}

/**
 * The calls every reader makes most: a note's detail, its comment pages and a like. Each is read the way the web
 * app and other clients write it, and the way they may write it otherwise (a flag as text, ids as strings), and the
 * answer must not depend on which.
 */
describe('a note\'s detail, its comment pages and likes', () => {
  let app: ContentTestApp;
  let author: TestUser;
  let reader: TestUser;
  let postId: number;
  let draftId: number;

  const get = <T = PostData>(path: string, options: { token?: string; headers?: Record<string, string> } = {}) => app.call<T>('GET', path, options);

  beforeAll(async () => {
    app = await ContentTestApp.start();
    author = await app.user({ nickname: '作者' });
    reader = await app.user({ nickname: '读者' });
    postId = (await app.call<PostData>('POST', '/api/posts', { token: author.token, body: await noteForm(app, { title: '直达的笔记' }) })).body.data.id;
    draftId = (await app.call<PostData>('POST', '/api/posts', { token: author.token, body: await noteForm(app, { title: '草稿', is_draft: 1 }) })).body.data.id;
    expect((await app.call('POST', '/api/likes', { token: reader.token, body: { target_type: 1, target_id: postId } })).status).toBe(200);
    for (const content of ['第一条', '第二条', '第三条']) {
      const comment = (await app.call<{ id: number }>('POST', '/api/comments', { token: author.token, body: { post_id: postId, content } })).body.data.id;
      await app.call('POST', '/api/comments', { token: reader.token, body: { post_id: postId, content: `回复${content}`, parent_id: comment } });
    }
    const first = (await get<CommentPage>(`/api/posts/${postId}/comments`)).body.data.comments.at(-1)!;
    expect((await app.call('POST', '/api/likes', { token: reader.token, body: { target_type: 2, target_id: first.id } })).status).toBe(200);
  });

  afterAll(async () => {
    await app?.close();
  });

  it('shows each reader the note with their own likes, whichever way the flag is written', async () => {
    for (const [token, liked] of [[undefined, false], [reader.token, true], [author.token, false]] as const) {
      const plain = await get(`/api/posts/${postId}?skipViewCount=1`, { token });
      const asText = await get(`/api/posts/${postId}?skipViewCount=true`, { token });
      expect(plain.status).toBe(200);
      expect(plain.body).toEqual(asText.body);
      expect(plain.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(plain.headers.get('etag')).toBe(asText.headers.get('etag'));
      expect(plain.headers.get('x-request-id')).toBeTruthy();
      expect(plain.body.data.title).toBe('直达的笔记');
      expect(plain.body.data.liked).toBe(liked);
    }
  });

  it('shows a draft to its author only, and answers 404 for a note that does not exist', async () => {
    const own = await get(`/api/posts/${draftId}`, { token: author.token });
    expect(own.status).toBe(200);
    expect(own.body.data.title).toBe('草稿');
    for (const [path, token] of [[`/api/posts/${draftId}`, reader.token], [`/api/posts/${draftId}`, undefined], ['/api/posts/999999999', undefined], ['/api/posts/0', undefined]] as const) {
      const missing = await get(path, { token });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ code: 404, message: '资源不存在', data: null });
    }
  });

  it('gives every reader the comment pages they ask for, their own likes included', async () => {
    for (const token of [undefined, reader.token]) {
      const all = (await get<CommentPage>(`/api/posts/${postId}/comments`, { token })).body.data;
      expect(all.pagination).toEqual({ page: 1, limit: 5, total: 3, pages: 1 });
      expect(all.comments.map((comment) => comment.content)).toEqual(['第三条', '第二条', '第一条']);
      const second = (await get<CommentPage>(`/api/posts/${postId}/comments?page=2&limit=2&sort=asc`, { token })).body.data;
      expect(second.comments.map((comment) => comment.content)).toEqual(['第三条']);
      expect(second.pagination).toEqual({ page: 2, limit: 2, total: 3, pages: 2 });
      const beyond = (await get<CommentPage>(`/api/posts/${postId}/comments?sort=desc&page=9`, { token })).body.data;
      expect(beyond.comments).toEqual([]);
      // Written otherwise than plainly, a number is still read as that number.
      expect((await get<CommentPage>(`/api/posts/${postId}/comments?limit=02`, { token })).body.data.comments).toHaveLength(2);
    }
    const page = (await get<CommentPage>(`/api/posts/${postId}/comments?sort=asc`, { token: reader.token })).body.data;
    expect(page.comments.map((comment) => [comment.content, comment.liked, comment.replies.length])).toEqual([
      ['第一条', true, 1],
      ['第二条', false, 1],
      ['第三条', false, 1],
    ]);
    expect((await get<CommentPage>(`/api/posts/${draftId}/comments`)).status).toBe(404);
  });

  it('lets a browser reuse an answer it has (304)', async () => {
    const first = await get(`/api/posts/${postId}?skipViewCount=1`);
    const again = await fetch(`${app.base}/api/posts/${postId}?skipViewCount=1`, { headers: { 'if-none-match': first.headers.get('etag')!, 'cache-control': 'max-age=0' } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  it('lets a shared cache keep what every visitor sees, and only the viewer\'s browser keep what is theirs', async () => {
    const policy = async (path: string, token?: string) => {
      const { status, headers } = await get(path, { token });
      expect(status).toBe(200);
      return [headers.get('cache-control'), headers.get('vary'), Boolean(headers.get('etag'))];
    };
    for (const path of [`/api/posts/${postId}?skipViewCount=1`, `/api/posts/${postId}/comments`, '/api/posts?page=1&limit=5']) {
      expect(await policy(path)).toEqual(['public, no-cache', 'Authorization', true]);
      expect(await policy(path, reader.token)).toEqual(['private, no-cache', 'Authorization', true]);
    }
    for (const path of ['/api/categories', '/api/tags', '/api/tags/hot']) {
      expect(await policy(path, reader.token)).toEqual(['public, no-cache', null, true]);
    }
    const refused = await get(`/api/posts/${draftId}`);
    expect(refused.status).toBe(404);
    expect(refused.headers.get('cache-control')).toBeNull();
  });

  it('likes and unlikes a note or a comment, once each however the ids are written, and refuses what is not a like', async () => {
    interface LikeState {
      liked: boolean;
      likeCount: number;
    }
    const liker = await app.user({ nickname: '点赞的人' });
    const tap = (method: 'POST' | 'DELETE', body: unknown, token: string | null = liker.token) => app.call<LikeState>(method, '/api/likes', { token: token ?? undefined, body });
    const commentId = (await get<CommentPage>(`/api/posts/${postId}/comments`)).body.data.comments[0].id;
    for (const [type, id] of [[1, postId], [2, commentId]] as const) {
      const liked = await tap('POST', { target_type: type, target_id: id });
      // The same tap again, its fields written as text: liking twice counts once.
      const again = await tap('POST', { target_id: String(id), target_type: String(type) });
      expect(liked.status).toBe(200);
      expect(liked.body).toEqual(again.body);
      expect(liked.body.message).toBe('点赞成功');
      expect(liked.body.data.liked).toBe(true);
      const unliked = await tap('DELETE', { target_type: type, target_id: id });
      const unlikedAgain = await tap('DELETE', { target_type: String(type), target_id: String(id) });
      expect(unliked.body).toEqual(unlikedAgain.body);
      expect(unliked.body).toEqual({ code: 200, message: '取消点赞成功', data: { liked: false, likeCount: liked.body.data.likeCount - 1 } });
    }
    for (const body of [{ target_type: 1, target_id: 999999999 }, { target_type: '1', target_id: '999999999' }]) expect((await tap('POST', body)).status).toBe(404);
    for (const body of [{ target_type: 1, target_id: draftId }, { target_type: '1', target_id: String(draftId) }]) expect((await tap('DELETE', body)).status).toBe(404);
    expect((await tap('POST', { target_type: 3, target_id: postId })).body.message).toBe('target_type 必须是 1（笔记）或 2（评论）');
    expect((await tap('POST', { target_type: 1, target_id: 1.5 })).body.message).toBe('target_id 必须是正整数');
    expect((await tap('POST', { target_type: 1, target_id: postId, note: '\u0000' })).body.message).toBe('请求参数不能包含空字符');
    expect((await tap('POST', { target_type: 1, target_id: postId }, null)).status).toBe(401);
    const notJson = await fetch(`${app.base}/api/likes`, { method: 'POST', body: '{"target_type":', headers: { 'content-type': 'application/json', authorization: `Bearer ${liker.token}` } });
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as { message: string }).message).toBe('请求体不是有效的JSON');
  });

  it('refuses a token it cannot accept and a query it cannot read, with the spec\'s messages', async () => {
    const refused = await get(`/api/posts/${postId}`, { token: 'not-a-token' });
    expect(refused.status).toBe(401);
    expect(refused.body.message).toBe('未授权访问');
    const invalid = await get(`/api/posts/${postId}?skipViewCount=maybe`);
    expect(invalid.status).toBe(400);
    expect(invalid.body.message).toBe('skipViewCount 必须是 true 或 false');
    expect((await get(`/api/posts/${postId}?skipViewCount=1&skipViewCount=0`)).status).toBe(400);
    const badLimit = await get(`/api/posts/${postId}/comments?limit=101`);
    expect(badLimit.status).toBe(400);
    expect(badLimit.body.message).toBe('limit 必须是 1-100 的整数');
    expect((await get(`/api/posts/${postId}/comments?sort=up`)).body.message).toBe('sort 必须是 desc 或 asc');
  });
});
