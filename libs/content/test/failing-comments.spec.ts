import { ContentTestApp, noteForm, type PostData, type TestUser } from './content-test-app';

describe('comments and replies: failing cases', () => {
  let app: ContentTestApp;
  let author: TestUser;
  let reader: TestUser;
  let postId: number;
  let commentId: number;
  let replyId: number;

  const commentCount = async () => (await app.query<{ n: number }>(`SELECT count(*)::int AS "n" FROM "comments"`))[0].n;

  beforeAll(async () => {
    app = await ContentTestApp.start();
    author = await app.user();
    reader = await app.user();
    postId = (await app.call<PostData>('POST', '/api/posts', { token: author.token, body: await noteForm(app) })).body.data.id;
    commentId = (await app.call<{ id: number }>('POST', '/api/comments', { token: reader.token, body: { post_id: postId, content: '一楼' } })).body.data.id;
    replyId = (await app.call<{ id: number }>('POST', '/api/comments', { token: reader.token, body: { post_id: postId, content: '回复', parent_id: commentId } })).body.data.id;
  });

  afterAll(async () => {
    await app?.close();
  });

  it('needs a login to comment or delete', async () => {
    expect((await app.call('POST', '/api/comments', { body: { post_id: postId, content: 'x' } })).status).toBe(401);
    expect((await app.call('DELETE', `/api/comments/${commentId}`)).status).toBe(401);
  });

  it.each([
    ['no text and no image', { content: '' }, '请输入评论内容或上传图片'],
    ['only spaces and markup', { content: '<p> &nbsp; </p><script>alert(1)</script>' }, '请输入评论内容或上传图片'],
    ['an image from elsewhere only', { content: '<img src="https://evil.example.com/x.png">' }, '请输入评论内容或上传图片'],
    ['an image that is not stored', { content: '<img src="/api/files/comments/missing.png">' }, '图片不存在，请重新上传'],
    ['more than 1000 characters', { content: '评'.repeat(1001) }, '评论内容不能超过1000个字符'],
    ['no note id', { post_id: undefined, content: '你好' }, '笔记ID无效'],
    ['a note id that is not a number', { post_id: 'abc', content: '你好' }, '笔记ID无效'],
  ])('refuses a comment with %s (400, nothing stored)', async (_case, change, message) => {
    const before = await commentCount();
    const answer = await app.call('POST', '/api/comments', { token: reader.token, body: { post_id: postId, ...change } });
    expect(answer.body).toEqual({ code: 400, message, data: null });
    expect(await commentCount()).toBe(before);
  });

  it('answers a comment on a missing note, or a reply to a missing comment or one of another note, with 404', async () => {
    const other = (await app.call<PostData>('POST', '/api/posts', { token: author.token, body: await noteForm(app) })).body.data.id;
    for (const body of [
      { post_id: 99999, content: '你好' },
      { post_id: postId, content: '你好', parent_id: 99999 },
      { post_id: other, content: '你好', parent_id: commentId },
    ]) {
      const answer = await app.call('POST', '/api/comments', { token: reader.token, body });
      expect(answer.body).toEqual({ code: 404, message: '资源不存在', data: null });
    }
    expect((await app.call('GET', '/api/posts/99999/comments')).status).toBe(404);
    expect((await app.call('GET', '/api/comments/99999/replies')).status).toBe(404);
    expect((await app.call('DELETE', '/api/comments/99999', { token: reader.token })).status).toBe(404);
  });

  it("refuses to delete someone else's comment or reply with 403", async () => {
    expect((await app.call('DELETE', `/api/comments/${commentId}`, { token: author.token })).body).toEqual({ code: 403, message: '只能删除自己的评论', data: null });
    expect((await app.call('DELETE', `/api/comments/${replyId}`, { token: author.token })).body).toEqual({ code: 403, message: '只能删除自己的回复', data: null });
    expect(await commentCount()).toBe(2);
  });

  it('refuses bad list parameters', async () => {
    expect((await app.call('GET', `/api/posts/${postId}/comments?sort=sideways`)).body).toEqual({ code: 400, message: 'sort 必须是 desc 或 asc', data: null });
    expect((await app.call('GET', `/api/posts/${postId}/comments?limit=1000`)).status).toBe(400);
  });
});
