import { ContentTestApp, noteForm, type PostData, type TestUser } from './content-test-app';

describe('notes and drafts: successful cases', () => {
  let app: ContentTestApp;
  let author: TestUser;
  let reader: TestUser;

  beforeAll(async () => {
    app = await ContentTestApp.start();
    author = await app.user({ nickname: '小柳', location: '杭州', verified: 2, avatar: '/api/files/avatars/willow.png' });
    reader = await app.user();
  });

  afterAll(async () => {
    await app?.close();
  });

  it('lists the categories, without the recommend channel', async () => {
    const answer = await app.call<{ id: number; name: string; category_title: string }[]>('GET', '/api/categories');
    expect(answer.status).toBe(200);
    const titles = answer.body.data.map((category) => category.category_title);
    expect(titles).toEqual(expect.arrayContaining(['study', 'food', 'travel', 'fashion', 'sports', 'campus', 'photography', 'entertainment']));
    expect(titles).not.toContain('recommend');
    expect(answer.body.data.find((category) => category.category_title === 'food')?.name).toBe('美食');
    for (const title of titles) expect(title).toMatch(/^[a-z]+$/);
  });

  it('publishes an image note and answers every field a reader needs', async () => {
    const wide = await app.image(800, 600);
    const second = await app.image(600, 800);
    const before = Date.now();
    const answer = await app.call<PostData>('POST', '/api/posts', {
      token: author.token,
      body: { title: '  秋天的银杏大道  ', content: '<p>下课后去<strong>拍照</strong></p>', category_id: 7, type: 1, images: [wide, { url: second }], tags: [' 摄影 ', '秋天', '摄影', ''] },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.message).toBe('发布成功');
    const post = answer.body.data;
    expect(post).toMatchObject({
      title: '秋天的银杏大道',
      content: '<p>下课后去<strong>拍照</strong></p>',
      type: 1,
      is_draft: 0,
      category_id: 7,
      category: '摄影',
      category_title: 'photography',
      images: [wide, second],
      image: wide,
      cover_url: wide,
      video_url: null,
      aspectRatio: 1.3333,
      user_id: author.userId,
      author_auto_id: author.id,
      nickname: '小柳',
      author: '小柳',
      user_avatar: '/api/files/avatars/willow.png',
      avatar: '/api/files/avatars/willow.png',
      verified: 2,
      author_verified: 2,
      location: '杭州',
      like_count: 0,
      likeCount: 0,
      collect_count: 0,
      comment_count: 0,
      view_count: 0,
      liked: false,
      collected: false,
    });
    expect(post.tags.map((tag) => tag.name)).toEqual(['摄影', '秋天']);
    // Dated when it was published: between the call and its answer (both clocks are this machine's, read to the millisecond).
    expect(Date.parse(String(post.created_at))).toBeGreaterThanOrEqual(before);
    expect(Date.parse(String(post.created_at))).toBeLessThanOrEqual(Date.now());

    const [event] = await app.events('post.published');
    expect(event).toMatchObject({ topic: 'shiliu.post', key: String(post.id), payload: { post: { id: post.id, author_id: author.id, title: '秋天的银杏大道', tags: ['摄影', '秋天'], images: [wide, second] } } });
  });

  it('publishes a video note with its cover', async () => {
    const video = await app.video();
    const cover = await app.image(640, 360);
    const answer = await app.call<PostData>('POST', '/api/posts', {
      token: author.token,
      body: { title: '校运会开幕式', content: '方阵入场', category_id: 5, type: 2, video: { url: video, coverUrl: cover, name: 'open.mp4', size: 1234 } },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ type: 2, video_url: video, cover_url: cover, image: cover, images: [cover], videos: [{ url: video, cover_url: cover }] });
  });

  it('reads a note as a visitor and as a logged-in reader', async () => {
    const { body } = await app.call<PostData>('POST', '/api/posts', { token: author.token, body: await noteForm(app, { title: '可读的笔记' }) });
    const visitor = await app.call<PostData>('GET', `/api/posts/${body.data.id}`);
    expect(visitor.status).toBe(200);
    expect(visitor.body.data).toMatchObject({ id: body.data.id, title: '可读的笔记', content: '<p>七点的图书馆很安静。</p>', liked: false });
    const logged = await app.call<PostData>('GET', `/api/posts/${body.data.id}`, { token: reader.token });
    expect(logged.status).toBe(200);
  });

  it('edits a note, keeping what the form leaves out, and tells others with post.updated', async () => {
    const { body } = await app.call<PostData>('POST', '/api/posts', { token: author.token, body: await noteForm(app, { title: '原标题' }) });
    const answer = await app.call<PostData>('PUT', `/api/posts/${body.data.id}`, { token: author.token, body: { title: '新标题', content: '<p>新内容</p>', tags: ['新标签'] } });
    expect(answer.status).toBe(200);
    expect(answer.body.message).toBe('更新成功');
    expect(answer.body.data).toMatchObject({ title: '新标题', content: '<p>新内容</p>', images: body.data.images, category_id: 1 });
    expect(answer.body.data.tags.map((tag) => tag.name)).toEqual(['新标签']);
    const updated = await app.events('post.updated');
    expect(updated.at(-1)).toMatchObject({ payload: { post: { id: body.data.id, title: '新标题', tags: ['新标签'] } } });
  });

  it('deletes a note with post.deleted, after which it is gone', async () => {
    const { body } = await app.call<PostData>('POST', '/api/posts', { token: author.token, body: await noteForm(app) });
    const answer = await app.call<{ id: number }>('DELETE', `/api/posts/${body.data.id}`, { token: author.token });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ code: 200, message: '删除成功', data: { id: body.data.id } });
    expect((await app.call('GET', `/api/posts/${body.data.id}`)).status).toBe(404);
    expect((await app.events('post.deleted')).at(-1)).toMatchObject({ key: String(body.data.id), payload: { id: body.data.id, author_id: author.id, was_draft: false } });
  });

  describe('drafts', () => {
    let draftId: number;

    beforeAll(async () => {
      const answer = await app.call<PostData>('POST', '/api/posts', {
        token: author.token,
        body: { title: '还没写完的草稿', content: `记得提醒 [@${reader.nickname}:${reader.userId}]`, type: 1, images: [await app.image()], is_draft: 1, tags: ['草稿标签'] },
      });
      expect(answer.status).toBe(200);
      expect(answer.body.message).toBe('保存成功');
      draftId = answer.body.data.id;
    });

    it('saves a draft without a category and without telling anyone', async () => {
      expect((await app.events('post.published')).some((event) => (event.payload as { post: { id: number } }).post.id === draftId)).toBe(false);
      expect(await app.events('user.mentioned')).toEqual([]);
    });

    it('shows the draft to its author, with the data the draft editor loads', async () => {
      const answer = await app.call<PostData & { originalData: unknown }>('GET', `/api/posts/${draftId}`, { token: author.token });
      expect(answer.status).toBe(200);
      expect(answer.body.data).toMatchObject({ is_draft: 1, title: '还没写完的草稿', originalData: { tags: ['草稿标签'] } });
    });

    it('lists drafts to their author only', async () => {
      const own = await app.call<{ posts: PostData[] }>('GET', `/api/posts?is_draft=1&user_id=${author.userId}`, { token: author.token });
      expect(own.status).toBe(200);
      expect(own.body.data.posts.map((post) => post.id)).toEqual([draftId]);
      const withoutUser = await app.call<{ posts: PostData[] }>('GET', '/api/posts?is_draft=1', { token: author.token });
      expect(withoutUser.body.data.posts.map((post) => post.id)).toEqual([draftId]);
    });

    it('does not count a draft tag as used', async () => {
      const tags = await app.call<{ name: string }[]>('GET', '/api/tags');
      expect(tags.body.data.map((tag) => tag.name)).not.toContain('草稿标签');
    });

    it('publishes the draft: it becomes a new note, and only now are mentioned users told', async () => {
      const answer = await app.call<PostData>('PUT', `/api/posts/${draftId}`, { token: author.token, body: { is_draft: 0, category_id: 2 } });
      expect(answer.status).toBe(200);
      expect(answer.body.data).toMatchObject({ is_draft: 0, category_title: 'food' });
      expect(answer.body.data.content).toBe(`记得提醒 [@${reader.nickname}:${reader.userId}]`);
      expect((await app.events('post.published')).at(-1)).toMatchObject({ payload: { post: { id: draftId } } });
      expect(await app.events('user.mentioned')).toEqual([
        expect.objectContaining({ topic: 'shiliu.post', key: String(draftId), payload: { source: 'post', post_id: draftId, comment_id: null, mentioned_user_id: reader.id, author_id: author.id } }),
      ]);
      const mentions = await app.query(`SELECT "user_id"::int AS "user_id" FROM "post_mentions" WHERE "post_id" = $1`, [draftId]);
      expect(mentions).toEqual([{ user_id: reader.id }]);
      const tags = await app.call<{ name: string; use_count: number }[]>('GET', '/api/tags');
      expect(tags.body.data.find((tag) => tag.name === '草稿标签')?.use_count).toBe(1);
    });
  });

  it('tells only newly mentioned users when a note is edited', async () => {
    const third = await app.user({ nickname: '第三人' });
    const { body } = await app.call<PostData>('POST', '/api/posts', { token: author.token, body: await noteForm(app, { content: `你好 [@${reader.nickname}:${reader.userId}]` }) });
    const before = (await app.events('user.mentioned')).length;
    expect((await app.events('user.mentioned')).at(-1)).toMatchObject({ payload: { post_id: body.data.id, mentioned_user_id: reader.id } });
    await app.call('PUT', `/api/posts/${body.data.id}`, { token: author.token, body: { content: `你好 [@${reader.nickname}:${reader.userId}] 和 [@第三人:${third.userId}]` } });
    const added = (await app.events('user.mentioned')).slice(before);
    expect(added.map((event) => (event.payload as { mentioned_user_id: number }).mentioned_user_id)).toEqual([third.id]);
  });

  it('leaves mentions of unknown users as plain text and stores the known ones', async () => {
    const answer = await app.call<PostData>('POST', '/api/posts', {
      token: author.token,
      body: await noteForm(app, { content: `约 [@路人:nobody_here] 和 [@${reader.nickname}:${reader.userId}] 一起` }),
    });
    expect(answer.body.data.content).toBe(`约 @路人 和 [@${reader.nickname}:${reader.userId}] 一起`);
    const mentions = await app.query(`SELECT "user_id"::int AS "user_id" FROM "post_mentions" WHERE "post_id" = $1`, [answer.body.data.id]);
    expect(mentions).toEqual([{ user_id: reader.id }]);
  });

  it('creates tags on first use and counts their use; hot tags favour recent use', async () => {
    await app.call('POST', '/api/posts', { token: author.token, body: await noteForm(app, { tags: ['考研', '自习'] }) });
    await app.call('POST', '/api/posts', { token: reader.token, body: await noteForm(app, { tags: ['考研'] }) });
    const tags = await app.call<{ id: number; name: string; use_count: number }[]>('GET', '/api/tags?keyword=考');
    expect(tags.status).toBe(200);
    expect(tags.body.data).toEqual([expect.objectContaining({ name: '考研', use_count: 2 })]);
    const hot = await app.call<{ name: string; recent_count: number }[]>('GET', '/api/tags/hot?limit=50');
    expect(hot.status).toBe(200);
    const names = hot.body.data.map((tag) => tag.name);
    expect(names.indexOf('考研')).toBeLessThan(names.indexOf('自习'));
    expect(hot.body.data.find((tag) => tag.name === '考研')?.recent_count).toBe(2);
    expect((await app.call<unknown[]>('GET', '/api/tags/hot?limit=1')).body.data).toHaveLength(1);
  });
});
