import { ContentTestApp, noteForm, type PostData, type TestUser } from './content-test-app';

describe('notes and drafts: failing cases', () => {
  let app: ContentTestApp;
  let author: TestUser;
  let other: TestUser;
  let published: PostData;
  let draft: PostData;

  const postCount = async () => (await app.query<{ n: number }>(`SELECT count(*)::int AS "n" FROM "posts"`))[0].n;

  beforeAll(async () => {
    app = await ContentTestApp.start();
    author = await app.user();
    other = await app.user();
    published = (await app.call<PostData>('POST', '/api/posts', { token: author.token, body: await noteForm(app) })).body.data;
    draft = (await app.call<PostData>('POST', '/api/posts', { token: author.token, body: await noteForm(app, { is_draft: true, title: '私密草稿' }) })).body.data;
  });

  afterAll(async () => {
    await app?.close();
  });

  it('needs a login to write', async () => {
    for (const [method, path] of [
      ['POST', '/api/posts'],
      ['PUT', `/api/posts/${published.id}`],
      ['DELETE', `/api/posts/${published.id}`],
    ]) {
      const answer = await app.call(method, path, { body: {} });
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ code: 401, message: '未授权访问', data: null });
    }
  });

  it.each([
    ['no title', { title: '  ' }, '请输入标题'],
    ['a title of markup only', { title: '<b></b>' }, '请输入标题'],
    ['no content', { content: '' }, '请输入内容'],
    ['content that is only markup', { content: '<p><script>x</script></p>' }, '请输入内容'],
    ['no category', { category_id: undefined }, '请选择分类'],
    ['an unknown category', { category_id: 999 }, '分类不存在'],
    ['a title over 100 characters', { title: '长'.repeat(101) }, '标题不能超过100个字符'],
    ['content over 2000 characters of text', { content: `<p>${'字'.repeat(2001)}</p>` }, '内容不能超过2000个字符'],
    ['an image note without images', { images: [] }, '请至少上传一张图片'],
    ['ten images', { images: Array.from({ length: 10 }, () => '/api/files/x.png') }, '最多只能上传9张图片'],
    ['an image from elsewhere', { images: ['https://evil.example.com/cat.png'] }, '图片必须是本站上传的图片'],
    ['an image that is not stored', { images: ['/api/files/images/none.png'] }, '图片不存在，请重新上传'],
    ['a video note without video', { type: 2, images: [] }, '请选择视频文件'],
    ['an unknown type', { type: 3 }, '笔记类型不正确'],
    ['eleven tags', { tags: Array.from({ length: 11 }, (_, i) => `标签${i}`) }, '最多只能选择10个标签'],
    ['a tag over 8 characters', { tags: ['一二三四五六七八九'] }, '标签不能超过8个字符'],
    ['tags that are not a list', { tags: '学习' }, '标签格式不正确'],
  ])('refuses a note with %s (400, nothing stored)', async (_case, change, message) => {
    const before = await postCount();
    const answer = await app.call('POST', '/api/posts', { token: author.token, body: await noteForm(app, change) });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ code: 400, message, data: null });
    expect(await postCount()).toBe(before);
  });

  it('refuses a video note whose video is an image', async () => {
    const answer = await app.call('POST', '/api/posts', { token: author.token, body: await noteForm(app, { type: 2, images: [], video: { url: await app.image() } }) });
    expect(answer.body).toEqual({ code: 400, message: '请选择视频文件', data: null });
  });

  it('refuses a draft with neither title nor content', async () => {
    const answer = await app.call('POST', '/api/posts', { token: author.token, body: await noteForm(app, { title: '', content: '', is_draft: 1 }) });
    expect(answer.body).toEqual({ code: 400, message: '请输入标题或内容', data: null });
  });

  it('answers an edit that empties title or content with 请填写完整信息 and keeps the note', async () => {
    for (const change of [{ title: '' }, { content: '   ' }]) {
      const answer = await app.call('PUT', `/api/posts/${published.id}`, { token: author.token, body: change });
      expect(answer.body).toEqual({ code: 400, message: '请填写完整信息', data: null });
    }
    const stored = await app.call<PostData>('GET', `/api/posts/${published.id}?skipViewCount=true`);
    expect(stored.body.data.title).toBe(published.title);
  });

  it('does not turn a published note back into a draft', async () => {
    const answer = await app.call('PUT', `/api/posts/${published.id}`, { token: author.token, body: { is_draft: 1 } });
    expect(answer.status).toBe(400);
  });

  it("refuses to edit or delete someone else's note with 403", async () => {
    const edit = await app.call('PUT', `/api/posts/${published.id}`, { token: other.token, body: { title: '改掉' } });
    expect(edit.body).toEqual({ code: 403, message: '禁止访问', data: null });
    const remove = await app.call('DELETE', `/api/posts/${published.id}`, { token: other.token });
    expect(remove.body).toEqual({ code: 403, message: '禁止访问', data: null });
    expect((await app.call<PostData>('GET', `/api/posts/${published.id}`)).body.data.title).toBe(published.title);
  });

  it('answers a missing note with 404', async () => {
    for (const [method, path] of [
      ['GET', '/api/posts/987654'],
      ['GET', '/api/posts/not-a-number'],
      ['PUT', '/api/posts/987654'],
      ['DELETE', '/api/posts/987654'],
    ]) {
      const answer = await app.call(method, path, { token: author.token, body: method === 'PUT' ? { title: 'x' } : undefined });
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ code: 404, message: '资源不存在', data: null });
    }
  });

  describe("someone else's draft does not exist for them", () => {
    it('is a 404 to read, for visitors and other users', async () => {
      expect((await app.call('GET', `/api/posts/${draft.id}`)).status).toBe(404);
      expect((await app.call('GET', `/api/posts/${draft.id}`, { token: other.token })).status).toBe(404);
    });

    it('is not in any feed, keyword search or profile list', async () => {
      for (const path of ['/api/posts', '/api/posts?category=study', `/api/posts?user_id=${author.userId}`, '/api/posts?keyword=私密', `/api/users/${author.userId}/posts`]) {
        const answer = await app.call<{ posts: PostData[] }>('GET', path, { token: author.token });
        expect(answer.status).toBe(200);
        expect(answer.body.data.posts.map((post) => post.id)).not.toContain(draft.id);
      }
    });

    it("cannot be listed as someone else's drafts", async () => {
      expect((await app.call('GET', `/api/posts?is_draft=1&user_id=${author.userId}`, { token: other.token })).body).toEqual({ code: 403, message: '禁止访问', data: null });
      expect((await app.call('GET', `/api/posts?is_draft=1&user_id=${author.userId}`)).status).toBe(401);
    });

    it('cannot be liked, collected or commented on', async () => {
      expect((await app.call('POST', '/api/likes', { token: other.token, body: { target_type: 1, target_id: draft.id } })).status).toBe(404);
      expect((await app.call('POST', `/api/posts/${draft.id}/collect`, { token: other.token })).status).toBe(404);
      expect((await app.call('POST', '/api/comments', { token: other.token, body: { post_id: draft.id, content: '看看' } })).status).toBe(404);
      expect((await app.call('GET', `/api/posts/${draft.id}/comments`)).status).toBe(404);
      expect((await app.query<{ n: number }>(`SELECT (SELECT count(*) FROM "likes" WHERE "target_type" = 1 AND "target_id" = $1) + (SELECT count(*) FROM "collections" WHERE "post_id" = $1) AS "n"`, [draft.id]))[0].n).toBe('0');
      expect((await app.query<{ like_count: number; collect_count: number }>(`SELECT "like_count", "collect_count" FROM "posts" WHERE "id" = $1`, [draft.id]))[0]).toEqual({ like_count: 0, collect_count: 0 });
      for (const type of ['post.liked', 'post.collected']) expect((await app.events(type)).filter((event) => (event.payload as { post_id: number }).post_id === draft.id)).toEqual([]);
    });

    it('is a 404 to edit or delete, as to read, and stays as it was', async () => {
      const missing = { code: 404, message: '资源不存在', data: null };
      expect((await app.call('PUT', `/api/posts/${draft.id}`, { token: other.token, body: { is_draft: 0 } })).body).toEqual(missing);
      expect((await app.call('DELETE', `/api/posts/${draft.id}`, { token: other.token })).body).toEqual(missing);
      expect((await app.call<PostData>('GET', `/api/posts/${draft.id}`, { token: author.token })).body.data).toMatchObject({ id: draft.id, is_draft: 1, title: '私密草稿' });
    });
  });

  it('refuses bad list parameters with 400', async () => {
    for (const [query, message] of [
      ['limit=101', 'limit 必须是 1-100 的整数'],
      ['page=0', 'page 必须是正整数'],
      ['type=5', '笔记类型不正确'],
      ['sort=random', '排序方式不正确'],
      ['snapshot=yesterday', 'snapshot 格式不正确'],
    ]) {
      const answer = await app.call('GET', `/api/posts?${query}`);
      expect(answer.body).toEqual({ code: 400, message, data: null });
    }
  });

  it('answers the profile lists of an unknown user with 404', async () => {
    for (const tab of ['posts', 'likes', 'collections']) expect((await app.call('GET', `/api/users/nobody_at_all/${tab}`)).status).toBe(404);
  });
});
