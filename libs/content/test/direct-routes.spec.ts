import type { Answer } from '@shiliu/platform/testing';
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
 * A note's detail, its comment pages and a like are answered before express and Nest (postDetailRoute,
 * commentPageRoute, likeRoutes). A query parameter they do not know, or a like's fields written as text, sends the
 * same call through Nest instead (its validation drops the parameter, or converts the text), so every answer here is
 * compared with Nest's own.
 */
describe('the note detail, comment pages and likes answered before Nest', () => {
  let app: ContentTestApp;
  let author: TestUser;
  let reader: TestUser;
  let postId: number;
  let draftId: number;
  let nestCalls: jest.SpyInstance;

  const direct = <T = PostData>(path: string, options: { token?: string; headers?: Record<string, string> } = {}) => app.call<T>('GET', path, options);
  const throughNest = <T = PostData>(path: string, options: { token?: string; headers?: Record<string, string> } = {}) =>
    app.call<T>('GET', `${path}${path.includes('?') ? '&' : '?'}via=nest`, options);
  /** The same call both ways: what the student sees must not depend on the way it took. */
  const bothWays = async <T = PostData>(path: string, options: { token?: string } = {}): Promise<[Answer<T>, Answer<T>]> => {
    nestCalls.mockClear();
    const first = await direct<T>(path, options);
    expect(nestCalls).not.toHaveBeenCalled();
    const second = await throughNest<T>(path, options);
    expect(nestCalls).toHaveBeenCalledTimes(1);
    return [first, second];
  };

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
    const first = (await app.call<CommentPage>('GET', `/api/posts/${postId}/comments?via=nest`)).body.data.comments.at(-1)!;
    expect((await app.call('POST', '/api/likes', { token: reader.token, body: { target_type: 2, target_id: first.id } })).status).toBe(200);
    const nest = app.service.app.getHttpAdapter().getInstance() as unknown as { handle: () => void };
    nestCalls = jest.spyOn(nest, 'handle');
  });

  afterAll(async () => {
    nestCalls?.mockRestore();
    await app?.close();
  });

  it('gives a logged-out reader, a reader who liked it and its author what Nest gives them', async () => {
    for (const token of [undefined, reader.token, author.token]) {
      const [first, second] = await bothWays(`/api/posts/${postId}?skipViewCount=1`, { token });
      expect(first.status).toBe(200);
      expect(first.body).toEqual(second.body);
      expect(first.headers.get('content-type')).toBe(second.headers.get('content-type'));
      expect(first.headers.get('etag')).toBe(second.headers.get('etag'));
      expect(first.headers.get('x-request-id')).toBeTruthy();
      expect(first.body.data.title).toBe('直达的笔记');
    }
    expect((await direct(`/api/posts/${postId}?skipViewCount=true`, { token: reader.token })).body.data.liked).toBe(true);
    expect((await direct(`/api/posts/${postId}?skipViewCount=true`)).body.data.liked).toBe(false);
  });

  it('shows a draft to its author only, and answers 404 as Nest does for a note that does not exist', async () => {
    const [own, ownByNest] = await bothWays(`/api/posts/${draftId}`, { token: author.token });
    expect(own.status).toBe(200);
    expect(own.body).toEqual(ownByNest.body);
    for (const [path, token] of [[`/api/posts/${draftId}`, reader.token], [`/api/posts/${draftId}`, undefined], ['/api/posts/999999999', undefined]] as const) {
      const [first, second] = await bothWays(path, { token });
      expect(first.status).toBe(404);
      expect(first.body).toEqual(second.body);
      expect(first.body.message).toBe('资源不存在');
    }
  });

  it('gives every reader the comment pages Nest gives them, their own likes included', async () => {
    for (const token of [undefined, reader.token]) {
      for (const query of ['', '?page=1&limit=5', '?page=2&limit=2&sort=asc', '?limit=100', '?sort=desc&page=9']) {
        const [first, second] = await bothWays<CommentPage>(`/api/posts/${postId}/comments${query}`, { token });
        expect(first.status).toBe(200);
        expect(first.body).toEqual(second.body);
        expect(first.headers.get('etag')).toBe(second.headers.get('etag'));
      }
    }
    const page = (await direct<CommentPage>(`/api/posts/${postId}/comments?sort=asc`, { token: reader.token })).body.data;
    expect(page.comments.map((comment) => [comment.content, comment.liked, comment.replies.length])).toEqual([
      ['第一条', true, 1],
      ['第二条', false, 1],
      ['第三条', false, 1],
    ]);
    expect(page.pagination).toEqual({ page: 1, limit: 5, total: 3, pages: 1 });
    const [missing, missingByNest] = await bothWays<CommentPage>(`/api/posts/${draftId}/comments`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(missingByNest.body);
  });

  it('lets a browser reuse an answer it has (304) without Nest', async () => {
    const first = await direct(`/api/posts/${postId}?skipViewCount=1`);
    nestCalls.mockClear();
    const again = await fetch(`${app.base}/api/posts/${postId}?skipViewCount=1`, { headers: { 'if-none-match': first.headers.get('etag')!, 'cache-control': 'max-age=0' } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(nestCalls).not.toHaveBeenCalled();
  });

  it('likes and unlikes a note or a comment as Nest does, and leaves to Nest every body it does not take', async () => {
    interface LikeState {
      liked: boolean;
      likeCount: number;
    }
    const liker = await app.user({ nickname: '点赞的人' });
    const tap = (method: 'POST' | 'DELETE', body: unknown, token: string | null = liker.token) => app.call<LikeState>(method, '/api/likes', { token: token ?? undefined, body });
    const commentId = (await app.call<CommentPage>('GET', `/api/posts/${postId}/comments?via=nest`)).body.data.comments[0].id;
    for (const [type, id] of [[1, postId], [2, commentId]] as const) {
      nestCalls.mockClear();
      const liked = await tap('POST', { target_type: type, target_id: id });
      expect(nestCalls).not.toHaveBeenCalled();
      // The same tap again, its fields written as text: Nest converts them, and liking twice counts once.
      const again = await tap('POST', { target_id: String(id), target_type: String(type) });
      expect(nestCalls).toHaveBeenCalledTimes(1);
      expect(liked.status).toBe(200);
      expect(liked.body).toEqual(again.body);
      expect(liked.body.message).toBe('点赞成功');
      expect(liked.body.data.liked).toBe(true);
      const unliked = await tap('DELETE', { target_type: type, target_id: id });
      const unlikedByNest = await tap('DELETE', { target_type: type, target_id: id, extra: 1 });
      expect(nestCalls).toHaveBeenCalledTimes(2);
      expect(unliked.body).toEqual(unlikedByNest.body);
      expect(unliked.body).toEqual({ code: 200, message: '取消点赞成功', data: { liked: false, likeCount: liked.body.data.likeCount - 1 } });
    }
    const [missing, missingByNest] = [await tap('POST', { target_type: 1, target_id: 999999999 }), await tap('POST', { target_type: '1', target_id: '999999999' })];
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(missingByNest.body);
    const [draft, draftByNest] = [await tap('DELETE', { target_type: 1, target_id: draftId }), await tap('DELETE', { target_type: '1', target_id: String(draftId) })];
    expect(draft.status).toBe(404);
    expect(draft.body).toEqual(draftByNest.body);
    nestCalls.mockClear();
    expect((await tap('POST', { target_type: 3, target_id: postId })).body.message).toBe('target_type 必须是 1（笔记）或 2（评论）');
    expect((await tap('POST', { target_type: 1, target_id: 1.5 })).body.message).toBe('target_id 必须是正整数');
    expect((await tap('POST', { target_type: 1, target_id: postId, note: '\u0000' })).body.message).toBe('请求参数不能包含空字符');
    expect((await tap('POST', { target_type: 1, target_id: postId }, null)).status).toBe(401);
    expect(nestCalls).toHaveBeenCalledTimes(4);
    const notJson = await fetch(`${app.base}/api/likes`, { method: 'POST', body: '{"target_type":', headers: { 'content-type': 'application/json', authorization: `Bearer ${liker.token}` } });
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as { message: string }).message).toBe('请求体不是有效的JSON');
    expect(nestCalls).toHaveBeenCalledTimes(4);
  });

  it('leaves to Nest every call it does not answer exactly as Nest would: a refused token, another query, another path', async () => {
    nestCalls.mockClear();
    const refused = await direct(`/api/posts/${postId}`, { token: 'not-a-token' });
    expect(refused.status).toBe(401);
    expect(refused.body.message).toBe('未授权访问');
    expect(nestCalls).toHaveBeenCalledTimes(1);
    const invalid = await direct(`/api/posts/${postId}?skipViewCount=maybe`);
    expect(invalid.status).toBe(400);
    expect(invalid.body.message).toBe('skipViewCount 必须是 true 或 false');
    const twice = await direct(`/api/posts/${postId}?skipViewCount=1&skipViewCount=0`);
    expect(twice.status).toBe(400);
    const notAnId = await direct('/api/posts/0');
    expect(notAnId.status).toBe(404);
    const badLimit = await direct(`/api/posts/${postId}/comments?limit=101`);
    expect(badLimit.status).toBe(400);
    expect(badLimit.body.message).toBe('limit 必须是 1-100 的整数');
    const badSort = await direct(`/api/posts/${postId}/comments?sort=up`);
    expect(badSort.body.message).toBe('sort 必须是 desc 或 asc');
    // Written otherwise than plainly, a value is still taken, by Nest.
    const padded = await direct<CommentPage>(`/api/posts/${postId}/comments?limit=02`);
    expect(padded.status).toBe(200);
    expect(padded.body.data.comments).toHaveLength(2);
    expect(nestCalls).toHaveBeenCalledTimes(7);
  });
});
