import { ContentTestApp, noteForm, type PostData, type PostPageData, type TestUser } from './content-test-app';

/** Every note list carries a plain-text excerpt as `content`: the draft box and note management show it. */
describe('note lists carry an excerpt of the content', () => {
  let app: ContentTestApp;
  let author: TestUser;
  let reader: TestUser;
  let noteId: number;
  const long = '长'.repeat(300);

  beforeAll(async () => {
    app = await ContentTestApp.start();
    author = await app.user({ nickname: '摘要作者' });
    reader = await app.user({ nickname: '摘要读者' });
    noteId = (await app.call<PostData>('POST', '/api/posts', { token: author.token, body: await noteForm(app, { title: '有正文', content: `<p><b>加粗</b>的开头</p><p>${long}</p>` }) })).body.data.id;
    await app.call('POST', '/api/posts', { token: author.token, body: await noteForm(app, { title: '草稿', content: '<p>草稿的正文</p>', is_draft: true }) });
    await app.call('POST', '/api/likes', { token: author.token, body: { target_type: 1, target_id: noteId } });
    await app.call('POST', `/api/posts/${noteId}/collect`, { token: author.token });
  });

  afterAll(async () => {
    await app?.close();
  });

  const listed = async (path: string, field: 'posts' | 'collections' = 'posts', as: TestUser = author): Promise<PostData[]> => {
    const answer = await app.call<PostPageData & { collections?: PostData[] }>('GET', path, { token: as.token });
    expect(answer.status).toBe(200);
    return field === 'posts' ? answer.body.data.posts : answer.body.data.collections!;
  };

  // The feed is read by another student: 推荐 leaves a student's own notes out.
  it.each([
    ['the feed', '/api/posts', 'posts', 'reader'],
    ['a profile’s notes', 'PROFILE/posts', 'posts', 'author'],
    ['a profile’s collections', 'PROFILE/collections', 'collections', 'author'],
    ['a profile’s likes', 'PROFILE/likes', 'posts', 'author'],
  ] as const)('in %s: the plain text, cut short', async (_name, path, field, as) => {
    const note = (await listed(path.replace('PROFILE', `/api/users/${author.userId}`), field, as === 'reader' ? reader : author)).find((post) => post.id === noteId)!;
    expect(note.content).toMatch(/^加粗的开头/);
    expect(note.content).not.toContain('<');
    expect(note.content!.length).toBeLessThan(long.length);
  });

  it('in the draft box', async () => {
    const drafts = await listed('/api/posts?is_draft=1');
    expect(drafts.map((draft) => [draft.title, draft.content])).toEqual([['草稿', '草稿的正文']]);
  });

  it('while the detail carries the rich text in full', async () => {
    const detail = (await app.call<PostData>('GET', `/api/posts/${noteId}?skipViewCount=true`)).body.data;
    expect(detail.content).toBe(`<p><b>加粗</b>的开头</p><p>${long}</p>`);
  });
});
