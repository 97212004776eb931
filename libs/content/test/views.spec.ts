import { ContentTestApp, noteForm, type PostData, type TestUser } from './content-test-app';

describe('view counting', () => {
  let app: ContentTestApp;
  let author: TestUser;
  let reader: TestUser;
  let postId: number;

  const views = async (options: { token?: string; headers?: Record<string, string>; query?: string } = {}) =>
    (await app.call<PostData>('GET', `/api/posts/${postId}${options.query ?? ''}`, options)).body.data.view_count;

  beforeAll(async () => {
    app = await ContentTestApp.start();
    author = await app.user();
    reader = await app.user();
    postId = (await app.call<PostData>('POST', '/api/posts', { token: author.token, body: await noteForm(app) })).body.data.id;
  });

  afterAll(async () => {
    await app?.close();
  });

  it('counts a logged-in viewer once per hour, whatever the client sends', async () => {
    expect(await views({ token: reader.token })).toBe(1);
    expect(await views({ token: reader.token })).toBe(1);
    expect(await views({ token: reader.token, headers: { 'user-agent': 'another browser', cookie: 'viewed=0' } })).toBe(1);
  });

  it('counts a logged-out viewer by address and user agent', async () => {
    expect(await views({ headers: { 'user-agent': 'browser A' } })).toBe(2);
    expect(await views({ headers: { 'user-agent': 'browser A' } })).toBe(2);
    expect(await views({ headers: { 'user-agent': 'browser B' } })).toBe(3);
    // A forged forwarding header does not make a new viewer: the service does not trust it from this client.
    expect(await views({ headers: { 'user-agent': 'browser A', 'x-forwarded-for': '203.0.113.9' } })).toBe(3);
  });

  it('honours skipViewCount=true', async () => {
    expect(await views({ headers: { 'user-agent': 'browser C' }, query: '?skipViewCount=true' })).toBe(3);
    expect(await views({ headers: { 'user-agent': 'browser C' } })).toBe(4);
  });

  it('counts the same viewer again once the hour has passed', async () => {
    await app.query(`UPDATE "post_views" SET "viewed_at" = now() - interval '61 minutes' WHERE "viewer" = $1`, [`u:${reader.id}`]);
    expect(await views({ token: reader.token })).toBe(5);
    expect(await views({ token: reader.token })).toBe(5);
  });
});
