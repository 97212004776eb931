import { ContentTestApp, noteForm, type PostData, type TestUser } from './content-test-app';

/** GET /posts/{id}/related: the ranking from tags, category, author and co-likes, and what it never shows. */
describe('related notes', () => {
  let app: ContentTestApp;
  let author: TestUser;
  let other: TestUser;
  let third: TestUser;
  let likers: TestUser[];
  const ids: Record<string, number> = {};

  const publish = async (name: string, by: TestUser, form: Record<string, unknown>) => {
    const answer = await app.call<PostData>('POST', '/api/posts', { token: by.token, body: await noteForm(app, { title: name, ...form }) });
    expect(answer.status).toBe(200);
    ids[name] = answer.body.data.id;
    return ids[name];
  };
  const like = (who: TestUser, id: number) => app.call('POST', '/api/likes', { token: who.token, body: { target_type: 1, target_id: id } });
  const related = async (id: number, query = '', token?: string) => {
    const answer = await app.call<{ posts: PostData[] }>('GET', `/api/posts/${id}/related${query}`, { token });
    expect(answer.status).toBe(200);
    return answer.body.data.posts;
  };
  const titles = (posts: PostData[]) => posts.map((post) => post.title);

  beforeAll(async () => {
    app = await ContentTestApp.start();
    [author, other, third] = [await app.user({ nickname: '柳絮' }), await app.user({ nickname: '小满' }), await app.user({ nickname: '阿秋' })];
    likers = [await app.user(), await app.user(), await app.user()];
    // The note: travel (3), tagged 考研 and 数学. Every other note is sports (5) unless it is meant to share the category.
    await publish('这篇', author, { category_id: 3, tags: ['考研', '数学'] });
    await publish('两个标签', other, { category_id: 5, tags: ['数学', '考研'] });
    await publish('一个标签', other, { category_id: 5, tags: ['考研'] });
    await publish('同一作者', author, { category_id: 5, tags: [] });
    await publish('同一分类', third, { category_id: 3, tags: [] });
    await publish('一起被赞', third, { category_id: 5, tags: [] });
    await publish('毫不相干', third, { category_id: 6, tags: ['食堂'] });
    await publish('作者的草稿', author, { category_id: 3, tags: ['考研'], is_draft: true });
    await publish('删掉的', other, { category_id: 3, tags: ['考研', '数学'] });
    expect((await app.call('DELETE', `/api/posts/${ids['删掉的']}`, { token: other.token })).status).toBe(200);
    // Two students liked both the note and 一起被赞; a third liked 一起被赞 only, which says nothing about the note.
    for (const student of likers.slice(0, 2)) {
      await like(student, ids['这篇']);
      await like(student, ids['一起被赞']);
    }
    await like(likers[2], ids['一起被赞']);
  });

  afterAll(async () => {
    await app?.close();
  });

  it('ranks shared tags, then students who liked both, then the author, then the category', async () => {
    // 两个标签 2×3, 一起被赞 2×2, 一个标签 3, 同一作者 2, 同一分类 1.
    expect(titles(await related(ids['这篇']))).toEqual(['两个标签', '一起被赞', '一个标签', '同一作者', '同一分类']);
  });

  it('never shows the note itself, drafts, deleted notes or notes with nothing in common', async () => {
    const shown = titles(await related(ids['这篇'], '?limit=20'));
    for (const left of ['这篇', '作者的草稿', '删掉的', '毫不相干']) expect(shown).not.toContain(left);
  });

  it('answers feed cards, for visitors and with the viewer’s own like', async () => {
    const anonymous = await related(ids['这篇']);
    expect(anonymous[1]).toMatchObject({ id: ids['一起被赞'], liked: false, like_count: 3, nickname: '阿秋' });
    const mine = await related(ids['这篇'], '', likers[0].token);
    expect(mine[1]).toMatchObject({ id: ids['一起被赞'], liked: true });
  });

  it('takes a limit from 1 to 20, 10 by default', async () => {
    for (let index = 0; index < 12; index++) await publish(`同类${index}`, third, { category_id: 3, tags: [] });
    expect(await related(ids['这篇'])).toHaveLength(10);
    expect(titles(await related(ids['这篇'], '?limit=2'))).toEqual(['两个标签', '一起被赞']);
    expect(await related(ids['这篇'], '?limit=20')).toHaveLength(17);
    for (const limit of ['0', '21', 'x']) {
      expect((await app.call('GET', `/api/posts/${ids['这篇']}/related?limit=${limit}`)).body).toEqual({ code: 400, message: 'limit 必须是 1-20 的整数', data: null });
    }
  });

  it('answers 404 for a missing, deleted or draft note', async () => {
    const missing = { code: 404, message: '资源不存在', data: null };
    for (const id of [99_999_999, ids['删掉的'], ids['作者的草稿']]) {
      expect((await app.call('GET', `/api/posts/${id}/related`)).body).toEqual(missing);
      expect((await app.call('GET', `/api/posts/${id}/related`, { token: author.token })).body).toEqual(missing);
    }
  });
});
