import { request as httpRequest } from 'node:http';
import { ContentTestApp, noteForm, type PostData, type TestUser } from './content-test-app';

interface RawAnswer {
  status: number;
  body: { code: number; message: string; data: unknown };
}

/**
 * Inputs a careless client or an attacker sends: none of them may reach the database as an error (a 500), each
 * is a 400 (or 413) with a Chinese message, and nothing changes.
 */
describe('hostile input never answers 500', () => {
  let app: ContentTestApp;
  let author: TestUser;
  let note: PostData;
  const postCount = async () => (await app.query<{ n: number }>(`SELECT count(*)::int AS "n" FROM "posts"`))[0].n;

  beforeAll(async () => {
    app = await ContentTestApp.start();
    author = await app.user();
    note = (await app.call<PostData>('POST', '/api/posts', { token: author.token, body: await noteForm(app) })).body.data;
  });

  afterAll(async () => {
    await app?.close();
  });

  /** Sends bytes as they are (fetch would refuse or re-encode some of them). */
  const raw = (method: string, path: string, body?: string | Buffer, headers: Record<string, string> = {}): Promise<RawAnswer> =>
    new Promise((resolve, reject) => {
      const url = new URL(app.base);
      const call = httpRequest(
        { host: url.hostname, port: url.port, method, path, headers: { authorization: `Bearer ${author.token}`, 'content-type': 'application/json', ...headers } },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => chunks.push(chunk));
          answer.on('end', () => resolve({ status: answer.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) as RawAnswer['body'] }));
        },
      );
      call.on('error', reject);
      call.end(body);
    });

  const chinese = /[\u4e00-\u9fff]/;

  it.each([
    ['a NUL byte in a query parameter', 'GET', '/api/posts?keyword=a%00b'],
    ['a NUL byte in a path segment', 'GET', '/api/users/a%00b/posts'],
    ['a page number beyond the database types', 'GET', '/api/posts?page=1e20'],
    ['a page number written as an exponent', 'GET', '/api/posts?page=99999999999'],
    ['an undecodable path segment', 'GET', '/api/users/%E0%A4%A/posts'],
  ])('answers %s with 400', async (_case, method, path) => {
    const answer = await raw(method, path);
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe(400);
    expect(answer.body.message).toMatch(chinese);
  });

  it.each([
    ['a NUL byte in a string', () => JSON.stringify({ ...base(), title: 'a\u0000b' })],
    ['a lone UTF-16 surrogate', () => `{"title":"a\\ud800b","content":"正文","category_id":1}`],
    ['a category id beyond integer range', () => JSON.stringify({ ...base(), category_id: 2147483648 })],
    ['5,000 levels of nested JSON', () => `{"title":"x","content":"y","video":${'['.repeat(5000)}${']'.repeat(5000)}}`],
    ['malformed JSON', () => '{"title": "x",'],
    ['a property name without quotes', () => '{title: "x"}'],
    ['a wrong nested type', () => JSON.stringify({ ...base(), video: { url: 5 } })],
  ])('answers a note with %s with a Chinese 400 and creates nothing', async (_case, body) => {
    const before = await postCount();
    const answer = await raw('POST', '/api/posts', body());
    expect(answer.status).toBe(400);
    expect(answer.body.message).toMatch(chinese);
    expect(await postCount()).toBe(before);
  });

  it('answers a body over 1 MB with 413, counted on the bytes that arrive even without a declared length', async () => {
    const big = JSON.stringify({ ...base(), content: 'x'.repeat(1024 * 1024 + 10) });
    const declared = await raw('POST', '/api/posts', big);
    expect(declared.status).toBe(413);
    expect(declared.body.message).toBe('请求内容过大');
    const chunked = await raw('POST', '/api/posts', big, { 'transfer-encoding': 'chunked' });
    expect(chunked.status).toBe(413);
  });

  it.each([
    ['a NUL byte', () => JSON.stringify({ post_id: note.id, content: 'a\u0000b' })],
    ['a lone surrogate', () => `{"post_id":${note.id},"content":"a\\udc00b"}`],
    ['a NUL byte in a field name', () => `{"post_id":${note.id},"content":"好","a\\u0000":1}`],
  ])('answers a comment with %s with 400 and adds none', async (_case, body) => {
    const answer = await raw('POST', '/api/comments', body());
    expect(answer.status).toBe(400);
    expect(answer.body.message).toMatch(chinese);
    expect((await app.query<{ n: number }>(`SELECT count(*)::int AS "n" FROM "comments"`))[0].n).toBe(0);
  });

  it.each(['/api/posts/1.0', '/api/posts/01', `/api/posts/${'9'.repeat(30)}`])('answers %s with 404, not a note', async (path) => {
    expect((await raw('GET', path)).status).toBe(404);
  });

  function base() {
    return { title: '标题', content: '正文', category_id: note.category_id ?? 1, images: [] };
  }
});
