import { ContentTestApp, noteForm, type PostData, type TestUser } from './content-test-app';

/** Stored XSS: what one user writes comes back to every reader; none of it may be able to run. */
describe('stored XSS payloads come back harmless', () => {
  let app: ContentTestApp;
  let attacker: TestUser;
  let victim: TestUser;
  let ownImage: string;

  const payloads = [
    '<script>alert(document.cookie)</script>',
    '<img src=x onerror=alert(1)>',
    '<img src="/api/files/x.png" onerror="alert(1)" onload="alert(2)">',
    '<a href="javascript:alert(1)">点我</a>',
    '<a href="JaVaScRiPt:alert(1)">点我</a>',
    '<a href="java&#x09;script:alert(1)">点我</a>',
    '<a href="&#106;avascript:alert(1)">点我</a>',
    '<svg onload=alert(1)><script>alert(1)</script></svg>',
    '<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>',
    '<iframe src="javascript:alert(1)"></iframe>',
    '<div style="background:url(javascript:alert(1))" onclick="alert(1)">样式</div>',
    '<object data="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=="></object>',
    '<a href="data:text/html,<script>alert(1)</script>">数据</a>',
    '&lt;img src=x onerror=alert(1)&gt;',
    '<<script>script>alert(1)<</script>/script>',
    '<p>正常文字</p><form action="https://evil.example.com"><input name="p"></form>',
    // Unclosed: swallows everything after it, so it comes last.
    '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  ];
  const joined = payloads.join('\n');

  /**
   * Nothing a browser would run. The sanitiser escapes every `<` of text, so each `<…>` is a real tag: only
   * allowed elements, no handler or style attribute, links only to http(s), mailto or our own paths, images only
   * from our object store. (Text such as "onerror=" between tags is shown as text and is harmless.)
   */
  const expectHarmless = (html: string) => {
    for (const [tag] of html.matchAll(/<[^>]*>/g)) {
      expect(tag).toMatch(/^<\/?(p|br|div|span|strong|b|em|i|u|s|del|blockquote|ul|ol|li|h[1-4]|pre|code|hr|a|img)[\s/>]/);
      expect(tag).not.toMatch(/\son[a-z]+\s*=/i);
      expect(tag).not.toMatch(/\sstyle\s*=/i);
      for (const [, url] of tag.matchAll(/\s(?:href|src)="([^"]*)"/g)) expect(url).toMatch(/^(https?:\/\/|mailto:|\/)/);
      if (tag.startsWith('<img')) expect(tag).toMatch(/^<img src="\/api\/files\/[A-Za-z0-9/_.-]+"( alt="[^"]*")? \/>$/);
    }
    expect(html.replace(/<[^>]*>/g, '')).not.toMatch(/[<>]/);
  };

  /** Plain-text fields hold no markup at all. */
  const expectPlain = (text: string) => expect(text).not.toMatch(/[<>]/);

  beforeAll(async () => {
    app = await ContentTestApp.start();
    attacker = await app.user({ nickname: '坏人' });
    victim = await app.user();
    ownImage = await app.image();
    await app.image(10, 10, 'x.png');
  });

  afterAll(async () => {
    await app?.close();
  });

  it('in a note title, content and tags', async () => {
    const created = await app.call<PostData>('POST', '/api/posts', {
      token: attacker.token,
      body: await noteForm(app, {
        title: '<img src=x onerror=alert(1)>标题&lt;script&gt;alert(1)&lt;/script&gt;',
        content: `<p>图 <img src="${ownImage}"></p>${joined}`,
        tags: ['<b>x</b>', '<svg/onload=1>'],
      }),
    });
    expect(created.status).toBe(200);
    const read = (await app.call<PostData>('GET', `/api/posts/${created.body.data.id}`, { token: victim.token })).body.data;
    expectPlain(read.title);
    expect(read.title).toContain('标题');
    expectHarmless(read.content!);
    expect(read.content).toContain('<p>正常文字</p>');
    expect(read.content).toContain(`<img src="${ownImage}" />`);
    for (const tag of read.tags) expectPlain(tag.name);
    const feed = (await app.call<{ posts: PostData[] }>('GET', '/api/posts')).body.data.posts[0];
    expectPlain(feed.title);
    const published = (await app.events('post.published'))[0].payload as { post: { title: string; content_text: string } };
    expectPlain(published.post.title);
    expectPlain(published.post.content_text);
  });

  it('in a note edited afterwards', async () => {
    const created = (await app.call<PostData>('POST', '/api/posts', { token: attacker.token, body: await noteForm(app) })).body.data;
    const edited = (await app.call<PostData>('PUT', `/api/posts/${created.id}`, { token: attacker.token, body: { title: '<script>alert(1)</script>改', content: joined } })).body.data;
    expectPlain(edited.title);
    expectHarmless(edited.content!);
  });

  it('in comments and replies', async () => {
    const post = (await app.call<PostData>('POST', '/api/posts', { token: victim.token, body: await noteForm(app) })).body.data;
    const top = await app.call<{ id: number }>('POST', '/api/comments', { token: attacker.token, body: { post_id: post.id, content: `评论${joined}` } });
    expect(top.status).toBe(200);
    await app.call('POST', '/api/comments', { token: attacker.token, body: { post_id: post.id, parent_id: top.body.data.id, content: '<img src=x onerror=alert(1)>回复<script>alert(1)</script>' } });
    const list = (await app.call<{ comments: { content: string; replies: { content: string }[] }[] }>('GET', `/api/posts/${post.id}/comments`, { token: victim.token })).body.data.comments;
    expectHarmless(list[0].content);
    expect(list[0].content).toContain('评论');
    expectHarmless(list[0].replies[0].content);
    expect(list[0].replies[0].content).toBe('回复');
  });

  it('in a mention whose nickname carries markup', async () => {
    const post = (await app.call<PostData>('POST', '/api/posts', { token: attacker.token, body: await noteForm(app, { content: '[@<img src=x onerror=alert(1)>:ghost_user] [@"><script>:ghost_user]' }) })).body.data;
    expectHarmless(post.content!);
  });
});
