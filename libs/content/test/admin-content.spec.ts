import { adminActed, type AdminActedPayload, commentDeleted, type CommentDeletedPayload, commentUpdated, type CommentUpdatedPayload, postDeleted, type PostDeletedPayload, postUpdated, type PostUpdatedPayload } from '@shiliu/contracts';
import { documentedAnswerProblems } from '@shiliu/platform/testing';
import { ContentTestApp, noteForm, type PostData, type TestUser } from './content-test-app';

interface Page<T> {
  data: T[];
  pagination: { page: number; limit: number; total: number; pages: number; totalPages: number };
}
interface AdminPost {
  id: number;
  title: string;
  user_display_id: string;
  nickname: string;
  category: string | null;
  tags: string[];
  images: string[];
  is_draft: number;
  view_count: number;
  comment_count: number;
}
interface AdminComment {
  id: number;
  content: string;
  user_display_id: string;
  post_id: number;
  parent_id: number | null;
}

describe('admin back office: notes and comments (content service, PostgreSQL)', () => {
  let app: ContentTestApp;
  let admin: string;
  let author: TestUser;
  let reader: TestUser;

  const payloads = async <T>(type: string): Promise<T[]> => (await app.events(type)).map((event) => event.payload as T);
  const publish = async (overrides: Record<string, unknown> = {}) =>
    (await app.call<PostData>('POST', '/api/posts', { token: author.token, body: await noteForm(app, overrides) })).body.data.id;

  beforeAll(async () => {
    app = await ContentTestApp.start();
    admin = await app.adminToken();
    author = await app.user({ nickname: '作者' });
    reader = await app.user({ nickname: '读者' });
  });

  afterAll(async () => {
    await app?.close();
  });

  it.each([
    ['GET', '/api/admin/posts'],
    ['GET', '/api/admin/posts/1'],
    ['POST', '/api/admin/posts'],
    ['PUT', '/api/admin/posts/1'],
    ['DELETE', '/api/admin/posts/1'],
    ['DELETE', '/api/admin/posts'],
    ['GET', '/api/admin/comments'],
    ['POST', '/api/admin/comments'],
    ['PUT', '/api/admin/comments/1'],
    ['DELETE', '/api/admin/comments/1'],
    ['DELETE', '/api/admin/comments'],
    ...['categories', 'tags', 'likes', 'collections'].flatMap((entity) => [
      ['GET', `/api/admin/${entity}`],
      ['POST', `/api/admin/${entity}`],
      ['PUT', `/api/admin/${entity}/1`],
      ['DELETE', `/api/admin/${entity}/1`],
      ['DELETE', `/api/admin/${entity}`],
    ]),
  ])('%s %s: 401 without a token, 403 with a student token', async (method, path) => {
    const body = method === 'GET' ? undefined : {};
    expect((await app.call(method, path, { body })).body).toEqual({ code: 401, message: '未授权访问', data: null });
    expect((await app.call(method, path, { body, token: author.token })).body).toEqual({ code: 403, message: '禁止访问', data: null });
  });

  it('lists notes with their author\'s product ID and tag names, filtered and sorted by whitelisted columns', async () => {
    const first = await publish({ title: '后台筛选一号', tags: ['摄影', '校园'] });
    const second = await publish({ title: '后台筛选二号' });
    await app.call('POST', '/api/posts', { token: author.token, body: await noteForm(app, { title: '后台筛选草稿', is_draft: true }) });
    const listed = await app.call<Page<AdminPost>>('GET', '/api/admin/posts?title=后台筛选&is_draft=0&sortField=id&sortOrder=asc', { token: admin });
    expect(listed.body.data.pagination).toMatchObject({ total: 2, pages: 1, totalPages: 1 });
    expect(listed.body.data.data.map((post) => post.id)).toEqual([first, second]);
    expect(listed.body.data.data[0]).toMatchObject({ user_display_id: author.userId, nickname: '作者', tags: ['摄影', '校园'], is_draft: 0, images: [expect.stringMatching(/^\/api\/files\//)] });
    const drafts = await app.call<Page<AdminPost>>('GET', `/api/admin/posts?title=后台筛选&is_draft=1&user_display_id=${author.userId}`, { token: admin });
    expect(drafts.body.data.data.map((post) => post.title)).toEqual(['后台筛选草稿']);
    expect((await app.call('GET', '/api/admin/posts?sortField=hot_score', { token: admin })).status).toBe(400);
    expect((await app.call('GET', '/api/admin/posts?type=video', { token: admin })).body).toMatchObject({ code: 400, message: 'type 必须是整数' });
  });

  it('drops empty query parameters and filters each table by every field it shows, text by substring', async () => {
    const category = (await app.call<{ id: number }>('POST', '/api/admin/categories', { token: admin, body: { name: '字段筛选分类', category_title: 'fieldfilter' } })).body.data.id;
    const noteId = await publish({ title: '字段筛选笔记', content: '<p>只在正文里的词：银杏大道</p>', category_id: category, tags: ['筛选标签'] });
    const comment = (await app.call<{ id: number }>('POST', '/api/comments', { token: reader.token, body: { post_id: noteId, content: '评论里的词：图书馆' } })).body.data.id;
    await app.call('POST', '/api/likes', { token: reader.token, body: { target_type: 1, target_id: noteId } });
    await app.call('POST', `/api/posts/${noteId}/collect`, { token: reader.token });

    const lists: [string, string, string][] = [
      ['categories', '?name=&category_title=&sortField=&sortOrder=', '?category_title=ldfilt&name=段筛选'],
      ['posts', '?title=&user_display_id=&category_id=&type=&is_draft=&content=&category=&tags=&nickname=', `?content=${encodeURIComponent('银杏')}&category=ldfilt&tags=${encodeURIComponent('选标')}&nickname=${encodeURIComponent('作')}`],
      ['comments', '?post_id=&user_id=&user_display_id=&content=&parent_id=', `?content=${encodeURIComponent('图书')}&user_display_id=${reader.userId.slice(1)}&post_id=${noteId}`],
      ['tags', '?name=', `?name=${encodeURIComponent('选标')}`],
      ['likes', '?user_id=&user_display_id=&target_type=&target_id=', `?user_id=${reader.id}&user_display_id=${reader.userId.slice(1)}&target_id=${noteId}`],
      ['collections', '?user_id=&user_display_id=&post_id=&post_title=', `?post_title=${encodeURIComponent('段筛选笔')}&user_display_id=${reader.userId.slice(1)}`],
    ];
    const expected: Record<string, number> = { categories: category, posts: noteId, comments: comment, tags: -1, likes: -1, collections: -1 };
    for (const [entity, empty, filters] of lists) {
      const all = await app.call<Page<{ id: number }>>('GET', `/api/admin/${entity}${empty}`, { token: admin });
      expect([entity, all.status, documentedAnswerProblems(`GET /api/admin/${entity}`, all.body)]).toEqual([entity, 200, []]);
      const filtered = await app.call<Page<{ id: number }>>('GET', `/api/admin/${entity}${filters}`, { token: admin });
      expect([entity, filtered.status, filtered.body.data.data.length]).toEqual([entity, 200, 1]);
      if (expected[entity] > 0) expect([entity, filtered.body.data.data[0].id]).toEqual([entity, expected[entity]]);
    }
    expect((await app.call<Page<unknown>>('GET', '/api/admin/categories?name=fieldfilter', { token: admin })).body.data.data).toEqual([]);
  });

  it('edits a note as its author would, view count included, and sends post.updated', async () => {
    const id = await publish({ title: '改之前' });
    const detail = await app.call<AdminPost>('GET', `/api/admin/posts/${id}`, { token: admin });
    expect(detail.body.data).toMatchObject({ id, title: '改之前', tags: ['学习'], images: [expect.any(String)] });
    const edited = await app.call<AdminPost>('PUT', `/api/admin/posts/${id}`, {
      token: admin,
      body: { ...(await noteForm(app, { title: '管理员改过', tags: ['新标签'] })), images: detail.body.data.images, view_count: 42 },
    });
    expect(edited.body).toMatchObject({ code: 200, message: '笔记更新成功', data: { title: '管理员改过', tags: ['新标签'], view_count: 42, user_display_id: author.userId } });
    expect((await payloads<PostUpdatedPayload>(postUpdated.type)).some((payload) => payload.post.id === id && payload.post.title === '管理员改过')).toBe(true);
    expect((await app.call('PUT', `/api/admin/posts/${id}`, { token: admin, body: { view_count: -1 } })).status).toBe(400);
    expect((await app.call('PUT', '/api/admin/posts/999999999', { token: admin, body: { title: '无' } })).status).toBe(404);
  });

  it('creates a note and a comment in a named user\'s name', async () => {
    const created = await app.call<AdminPost>('POST', '/api/admin/posts', { token: admin, body: { ...(await noteForm(app, { title: '代发的笔记' })), user_id: author.userId } });
    expect(created.body).toMatchObject({ code: 200, message: '笔记创建成功', data: { title: '代发的笔记', user_display_id: author.userId } });
    const comment = await app.call<AdminComment>('POST', '/api/admin/comments', { token: admin, body: { post_id: created.body.data.id, content: '代发的评论', user_id: reader.userId } });
    expect(comment.body).toMatchObject({ code: 200, data: { content: '代发的评论', user_display_id: reader.userId, post_id: created.body.data.id } });
    expect((await app.call('POST', '/api/admin/comments', { token: admin, body: { post_id: created.body.data.id, content: '无人', user_id: 'nobody_here' } })).status).toBe(404);
  });

  it('deletes a note as its author would: post.deleted with its counts, and the administrator write logged', async () => {
    const id = await publish({ title: '将被删除' });
    await app.call('POST', '/api/comments', { token: reader.token, body: { post_id: id, content: '一条评论' } });
    expect((await app.call('DELETE', `/api/admin/posts/${id}`, { token: admin })).body).toEqual({ code: 200, message: '删除成功', data: null });
    expect((await app.call('GET', `/api/posts/${id}`)).status).toBe(404);
    expect((await payloads<PostDeletedPayload>(postDeleted.type)).find((payload) => payload.id === id)).toMatchObject({ author_id: author.id, comment_count: 1, was_draft: false });
    expect((await payloads<AdminActedPayload>(adminActed.type)).find((payload) => payload.entity === 'posts' && payload.target_ids.includes(id))).toMatchObject({ method: 'DELETE', admin_name: 'admin' });
    expect((await app.call('DELETE', `/api/admin/posts/${id}`, { token: admin })).status).toBe(404);

    const a = await publish();
    const b = await publish();
    expect((await app.call('DELETE', '/api/admin/posts', { token: admin, body: { ids: [a, b, 999999999] } })).body).toEqual({ code: 200, message: '批量删除成功', data: { deletedCount: 2 } });
  });

  it('bulk-deletes two comments, updating the note\'s count and sending comment.deleted for each', async () => {
    const id = await publish({ title: '评论批量删除' });
    const one = (await app.call<AdminComment>('POST', '/api/comments', { token: reader.token, body: { post_id: id, content: '第一条' } })).body.data.id;
    const two = (await app.call<AdminComment>('POST', '/api/comments', { token: reader.token, body: { post_id: id, content: '第二条' } })).body.data.id;
    await app.call('POST', '/api/comments', { token: author.token, body: { post_id: id, content: '留下的' } });
    const listed = await app.call<Page<AdminComment>>('GET', `/api/admin/comments?post_id=${id}&sortField=created_at&sortOrder=asc`, { token: admin });
    expect(listed.body.data.data.map((comment) => [comment.content, comment.user_display_id])).toEqual([
      ['第一条', reader.userId],
      ['第二条', reader.userId],
      ['留下的', author.userId],
    ]);
    expect((await app.call('GET', '/api/admin/comments?sortField=content_text', { token: admin })).status).toBe(400);

    expect((await app.call('DELETE', '/api/admin/comments', { token: admin, body: { ids: [one, two] } })).body).toEqual({ code: 200, message: '批量删除成功', data: { deletedCount: 2 } });
    expect((await app.call<PostData>('GET', `/api/posts/${id}?skipViewCount=true`)).body.data.comment_count).toBe(1);
    const deleted = (await payloads<CommentDeletedPayload>(commentDeleted.type)).filter((payload) => payload.post_id === id);
    expect(deleted.map((payload) => payload.id).sort()).toEqual([one, two].sort());
    expect((await app.call('DELETE', '/api/admin/comments', { token: admin, body: {} })).body).toMatchObject({ code: 400, message: '请选择要删除的项目' });
    expect((await app.call('DELETE', '/api/admin/comments', { token: admin, body: { ids: [1e20] } })).body).toMatchObject({ code: 400, message: 'ids 必须是正整数' });
    expect((await app.call('DELETE', `/api/admin/comments/${one}`, { token: admin })).status).toBe(404);
  });

  it('manages categories: the spec\'s form rules, no duplicates, and never one that still has notes', async () => {
    expect((await app.call('POST', '/api/admin/categories', { token: admin, body: { name: '测试分类', category_title: 'Testing' } })).body).toMatchObject({ code: 400, message: '只能输入小写英文字母' });
    const created = await app.call<{ id: number; name: string; post_count: number }>('POST', '/api/admin/categories', { token: admin, body: { name: '测试分类', category_title: 'testing' } });
    expect(created.body).toMatchObject({ code: 200, message: '分类创建成功', data: { name: '测试分类', post_count: 0 } });
    expect((await app.call('POST', '/api/admin/categories', { token: admin, body: { name: '测试分类', category_title: 'other' } })).status).toBe(409);
    const id = created.body.data.id;
    const noteId = await publish({ category_id: id, title: '分类里的笔记' });
    const renamed = await app.call<{ name: string; post_count: number }>('PUT', `/api/admin/categories/${id}`, { token: admin, body: { name: '改名分类', category_title: 'renamed' } });
    expect(renamed.body.data).toMatchObject({ name: '改名分类', post_count: 1 });
    expect((await payloads<PostUpdatedPayload>(postUpdated.type)).some((payload) => payload.post.id === noteId && payload.post.category_title === 'renamed')).toBe(true);
    const listed = await app.call<Page<{ id: number }>>('GET', '/api/admin/categories?name=改名&sortField=post_count', { token: admin });
    expect(listed.body.data.data.map((category) => category.id)).toEqual([id]);
    expect((await app.call('DELETE', `/api/admin/categories/${id}`, { token: admin })).body).toMatchObject({ code: 409, message: '分类「改名分类」下还有笔记，不能删除' });
    await app.call('DELETE', `/api/admin/posts/${noteId}`, { token: admin });
    expect((await app.call('DELETE', `/api/admin/categories/${id}`, { token: admin })).body).toEqual({ code: 200, message: '删除成功', data: null });
    expect((await app.call('DELETE', `/api/admin/categories/${id}`, { token: admin })).status).toBe(404);
    // Ids beyond the columns' integer range name nothing (the fuzz run's find: they were a 500).
    const beyond = [2 ** 31, 4284938190876];
    expect((await app.call('DELETE', '/api/admin/categories', { token: admin, body: { ids: beyond } })).body).toEqual({ code: 200, message: '批量删除成功', data: { deletedCount: 0 } });
    expect((await app.call('DELETE', '/api/admin/tags', { token: admin, body: { ids: beyond } })).body).toEqual({ code: 200, message: '批量删除成功', data: { deletedCount: 0 } });
    expect((await app.call('PUT', `/api/admin/tags/${2 ** 31}`, { token: admin, body: { name: '不存在' } })).status).toBe(404);
    expect((await app.call('DELETE', `/api/admin/categories/${2 ** 31}`, { token: admin })).status).toBe(404);
  });

  it('renames and deletes tags, announcing the notes that carry them', async () => {
    const noteId = await publish({ title: '带标签', tags: ['旧名字'] });
    const listed = await app.call<Page<{ id: number; name: string; use_count: number }>>('GET', '/api/admin/tags?name=旧名字', { token: admin });
    expect(listed.body.data.data).toEqual([expect.objectContaining({ name: '旧名字', use_count: 1 })]);
    const tagId = listed.body.data.data[0].id;
    expect((await app.call('PUT', `/api/admin/tags/${tagId}`, { token: admin, body: { name: '新名字' } })).body).toMatchObject({ code: 200, data: { name: '新名字', use_count: 1 } });
    expect((await payloads<PostUpdatedPayload>(postUpdated.type)).some((payload) => payload.post.id === noteId && payload.post.tags.includes('新名字'))).toBe(true);
    expect((await app.call('POST', '/api/admin/tags', { token: admin, body: { name: '新名字' } })).status).toBe(409);
    expect((await app.call('DELETE', '/api/admin/tags', { token: admin, body: { ids: [tagId] } })).body).toEqual({ code: 200, message: '批量删除成功', data: { deletedCount: 1 } });
    expect((await app.call<AdminPost>('GET', `/api/admin/posts/${noteId}`, { token: admin })).body.data.tags).toEqual([]);
  });

  it('makes and takes back likes and collections with the counters and events of a student\'s tap', async () => {
    const noteId = await publish({ title: '被点赞' });
    const like = await app.call<{ id: number; user_display_id: string; target_type: number }>('POST', '/api/admin/likes', { token: admin, body: { user_id: reader.userId, target_type: 1, target_id: noteId } });
    expect(like.body).toMatchObject({ code: 200, data: { user_display_id: reader.userId, target_type: 1, target_id: noteId } });
    const collection = await app.call<{ id: number; post_title: string }>('POST', '/api/admin/collections', { token: admin, body: { user_id: reader.userId, post_id: noteId } });
    expect(collection.body).toMatchObject({ code: 200, data: { post_title: '被点赞' } });
    expect((await app.call<PostData>('GET', `/api/posts/${noteId}?skipViewCount=true`)).body.data).toMatchObject({ like_count: 1, collect_count: 1 });
    const likes = await app.call<Page<{ id: number }>>('GET', `/api/admin/likes?target_type=1&target_id=${noteId}`, { token: admin });
    expect(likes.body.data.data.map((row) => row.id)).toEqual([like.body.data.id]);
    expect((await app.call('GET', '/api/admin/likes?sortField=user_id', { token: admin })).status).toBe(400);
    expect((await app.call('DELETE', `/api/admin/likes/${like.body.data.id}`, { token: admin })).body).toEqual({ code: 200, message: '删除成功', data: null });
    expect((await app.call('DELETE', '/api/admin/collections', { token: admin, body: { ids: [collection.body.data.id] } })).body).toEqual({ code: 200, message: '批量删除成功', data: { deletedCount: 1 } });
    expect((await app.call<PostData>('GET', `/api/posts/${noteId}?skipViewCount=true`)).body.data).toMatchObject({ like_count: 0, collect_count: 0 });
    expect((await app.events('post.unliked')).some((event) => (event.payload as { post_id: number }).post_id === noteId)).toBe(true);
    expect((await app.events('post.uncollected')).some((event) => (event.payload as { post_id: number }).post_id === noteId)).toBe(true);
    expect((await app.call('POST', '/api/admin/likes', { token: admin, body: { user_id: reader.userId, target_type: 3, target_id: noteId } })).status).toBe(400);
  });

  it('edits a comment\'s text under a new comment\'s rules, sending comment.updated and telling only newly mentioned users', async () => {
    const id = await publish({ title: '评论修改' });
    const comment = (await app.call<AdminComment>('POST', '/api/comments', { token: reader.token, body: { post_id: id, content: `原话 [@作者:${author.userId}]` } })).body.data.id;
    const third = await app.user({ nickname: '第三人' });
    const edited = await app.call<AdminComment>('PUT', `/api/admin/comments/${comment}`, { token: admin, body: { post_id: id, content: `改过的话 [@作者:${author.userId}] [@第三人:${third.userId}]` } });
    expect(edited.body).toMatchObject({ code: 200, message: '评论更新成功', data: { id: comment, post_id: id, user_display_id: reader.userId, content: expect.stringContaining('改过的话') } });
    expect((await payloads<CommentUpdatedPayload>(commentUpdated.type)).find((payload) => payload.comment.id === comment)).toMatchObject({
      comment: { post_id: id, author_id: reader.id, content_text: expect.stringContaining('改过的话') },
    });
    const mentions = (await app.events('user.mentioned')).map((event) => event.payload as { comment_id?: number; mentioned_user_id: number }).filter((payload) => payload.comment_id === comment);
    expect(mentions.map((payload) => payload.mentioned_user_id)).toEqual([author.id, third.id]);
    expect((await app.call<{ comments: { content: string }[] }>('GET', `/api/posts/${id}/comments`)).body.data.comments[0].content).toContain('改过的话');

    expect((await app.call('PUT', `/api/admin/comments/${comment}`, { token: admin, body: { content: '' } })).body).toEqual({ code: 400, message: '请输入评论内容', data: null });
    expect((await app.call('PUT', `/api/admin/comments/${comment}`, { token: admin, body: { content: '字'.repeat(1001) } })).body).toEqual({ code: 400, message: '评论内容不能超过1000个字符', data: null });
    expect((await app.call('PUT', `/api/admin/comments/${comment}`, { token: admin, body: { post_id: id + 1, content: '搬家' } })).body).toEqual({ code: 400, message: '评论不能移到其他笔记', data: null });
    expect((await app.call('PUT', '/api/admin/comments/999999999', { token: admin, body: { content: '无' } })).status).toBe(404);
    expect((await payloads<AdminActedPayload>(adminActed.type)).find((payload) => payload.entity === 'comments' && payload.target_ids.includes(comment))).toMatchObject({ method: 'PUT' });
  });

  it('moves a like and a collection to another target: the old taken back and the new made, with a student\'s counters and events', async () => {
    const first = await publish({ title: '原来的' });
    const second = await publish({ title: '后来的' });
    const like = (await app.call<{ id: number }>('POST', '/api/admin/likes', { token: admin, body: { user_id: reader.userId, target_type: 1, target_id: first } })).body.data.id;
    const collection = (await app.call<{ id: number }>('POST', '/api/admin/collections', { token: admin, body: { user_id: reader.userId, post_id: first } })).body.data.id;

    const moved = await app.call<{ id: number; target_id: number; user_display_id: string }>('PUT', `/api/admin/likes/${like}`, { token: admin, body: { user_id: reader.userId, target_type: 1, target_id: second } });
    expect(moved.body).toMatchObject({ code: 200, message: '点赞更新成功', data: { target_id: second, user_display_id: reader.userId } });
    const recollected = await app.call<{ id: number; post_title: string }>('PUT', `/api/admin/collections/${collection}`, { token: admin, body: { user_id: reader.userId, post_id: second } });
    expect(recollected.body).toMatchObject({ code: 200, message: '收藏更新成功', data: { post_title: '后来的' } });
    const counts = async (noteId: number) => (await app.call<PostData>('GET', `/api/posts/${noteId}?skipViewCount=true`)).body.data;
    expect(await counts(first)).toMatchObject({ like_count: 0, collect_count: 0 });
    expect(await counts(second)).toMatchObject({ like_count: 1, collect_count: 1 });
    const postIds = async (type: string) => (await app.events(type)).map((event) => (event.payload as { post_id: number }).post_id);
    expect(await postIds('post.unliked')).toContain(first);
    expect(await postIds('post.liked')).toContain(second);
    expect(await postIds('post.uncollected')).toContain(first);
    expect(await postIds('post.collected')).toContain(second);

    const unchanged = await app.call<{ id: number }>('PUT', `/api/admin/likes/${moved.body.data.id}`, { token: admin, body: { user_id: reader.userId, target_type: 1, target_id: second } });
    expect(unchanged.body.data.id).toBe(moved.body.data.id);
    const other = (await app.call<{ id: number }>('POST', '/api/admin/likes', { token: admin, body: { user_id: author.userId, target_type: 1, target_id: first } })).body.data.id;
    expect((await app.call('PUT', `/api/admin/likes/${other}`, { token: admin, body: { user_id: reader.userId, target_type: 1, target_id: second } })).body).toEqual({ code: 409, message: '该用户已经点赞过这个对象', data: null });
    expect((await app.call('PUT', `/api/admin/likes/${other}`, { token: admin, body: { user_id: author.userId, target_type: 1, target_id: 999999999 } })).status).toBe(404);
    expect(await counts(first)).toMatchObject({ like_count: 1 });
    expect((await app.call('PUT', `/api/admin/likes/${other}`, { token: admin, body: { user_id: author.userId, target_type: 3, target_id: first } })).status).toBe(400);
    expect((await app.call('PUT', '/api/admin/likes/999999999', { token: admin, body: { user_id: author.userId, target_type: 1, target_id: first } })).status).toBe(404);
    expect((await app.call('PUT', `/api/admin/collections/${recollected.body.data.id}`, { token: admin, body: { user_id: reader.userId } })).body).toEqual({ code: 400, message: '请输入笔记 ID', data: null });
    expect((await app.call('PUT', `/api/admin/collections/${recollected.body.data.id}`, { token: admin, body: { user_id: 'nobody_here', post_id: first } })).status).toBe(404);
  });

  it('writes an administrator\'s audit entry in the same transaction as the change, one entry however many transactions the call commits', async () => {
    // Which transaction wrote each outbox row (xmin changes when the relay marks a row sent, so it cannot tell).
    await app.query(`CREATE TABLE "outbox_writers" ("id" uuid PRIMARY KEY, "tx" bigint NOT NULL)`);
    await app.query(`CREATE FUNCTION "note_outbox_writer"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN INSERT INTO "outbox_writers" VALUES (NEW."id", txid_current()); RETURN NEW; END $$`);
    await app.query(`CREATE TRIGGER "outbox_writer" AFTER INSERT ON "outbox" FOR EACH ROW EXECUTE FUNCTION "note_outbox_writer"()`);

    const id = await publish({ title: '同一事务' });
    const comments: number[] = [];
    for (const content of ['甲', '乙', '丙']) comments.push((await app.call<AdminComment>('POST', '/api/comments', { token: reader.token, body: { post_id: id, content } })).body.data.id);
    expect((await app.call('DELETE', '/api/admin/comments', { token: admin, body: { ids: comments } })).body).toMatchObject({ code: 200, data: { deletedCount: 3 } });

    const rows = await app.query<{ type: string; tx: string; path: string; comment: number | null }>(
      `SELECT o."type", w."tx"::text AS "tx", o."envelope"->'payload'->>'path' AS "path", (o."envelope"->'payload'->>'id')::int AS "comment"
       FROM "outbox" o JOIN "outbox_writers" w ON w."id" = o."id"
       WHERE (o."type" = 'admin.acted' AND o."envelope"->'payload'->>'entity' = 'comments' AND o."envelope"->'payload'->'target_ids' @> $1::jsonb)
          OR (o."type" = 'comment.deleted' AND (o."envelope"->'payload'->>'id')::int = ANY($2::int[]))
       ORDER BY o."seq"`,
      [JSON.stringify(comments), comments],
    );
    const entries = rows.filter((row) => row.type === 'admin.acted');
    expect(entries).toHaveLength(1);
    expect(entries[0].path).toBe('/api/admin/comments');
    // Each deletion committed with the entry; the first transaction's was kept.
    expect(entries[0].tx).toBe(rows.find((row) => row.type === 'comment.deleted' && row.comment === comments[0])!.tx);

    // A single insert commits with its entry too, and a refused one (409) leaves none.
    const created = async () => (await payloads<AdminActedPayload>(adminActed.type)).filter((payload) => payload.entity === 'categories' && payload.method === 'POST').length;
    const before = await created();
    const category = (await app.call<{ id: number }>('POST', '/api/admin/categories', { token: admin, body: { name: '单条语句', category_title: 'single' } })).body.data.id;
    const [row] = await app.query<{ tx: string }>(`SELECT xmin::text AS "tx" FROM "categories" WHERE "id" = $1`, [category]);
    const [entry] = await app.query<{ tx: string }>(
      `SELECT w."tx"::text AS "tx" FROM "outbox" o JOIN "outbox_writers" w ON w."id" = o."id" WHERE o."type" = 'admin.acted' AND o."envelope"->'payload'->>'entity' = 'categories' ORDER BY o."seq" DESC LIMIT 1`,
    );
    expect(entry.tx).toBe(row.tx);
    expect((await app.call('POST', '/api/admin/categories', { token: admin, body: { name: '单条语句', category_title: 'again' } })).status).toBe(409);
    expect(await created()).toBe(before + 1);
    expect((await app.call('DELETE', `/api/admin/categories/${category}`, { token: admin })).status).toBe(200);

    // A call that fails changes nothing and leaves no entry.
    expect((await app.call('DELETE', `/api/admin/comments/${comments[0]}`, { token: admin })).status).toBe(404);
    expect((await payloads<AdminActedPayload>(adminActed.type)).filter((payload) => payload.entity === 'comments' && payload.target_ids.length === 1 && payload.target_ids[0] === comments[0])).toEqual([]);
  });
});
