import { request } from 'node:http';
import { connect } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { type ProductStack, type RunMode, type StackUser, startProductStack } from './product-stack';
import { webFixture } from './web-fixture';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

const NOT_DECODABLE = { code: 400, message: '请求体压缩数据已损坏，无法解压', data: null };

/** Write calls of every service, the direct-route likes among them, each with a body its DTO would take. */
const writeRoutes = (student: StackUser): [string, string, object][] => [
  ['POST', '/api/auth/login', { user_id: student.userId, password: 'secret-123' }],
  ['POST', '/api/auth/register', { user_id: 'st_hostile', nickname: '压缩', password: 'secret-123' }],
  ['POST', '/api/auth/admin/login', { username: 'admin', password: 'x' }],
  ['PUT', `/api/users/${student.userId}`, { nickname: '新名字' }],
  ['POST', '/api/posts', { title: '压缩', content: '正文', category_id: 1, type: 1 }],
  ['POST', '/api/comments', { post_id: 1, content: '评论' }],
  ['POST', '/api/likes', { target_type: 1, target_id: 1 }],
  ['DELETE', '/api/likes', { target_type: 1, target_id: 1 }],
  ['POST', `/api/users/${student.userId}/follow`, {}],
  ['POST', '/api/upload/single', {}],
  ['PUT', '/api/notifications/read-all', {}],
];

/** Bodies that say they are compressed and are not, or are cut off in the middle. */
const corruptBodies: [string, Buffer][] = [
  ['gzip', Buffer.from('abcde')],
  ['deflate', Buffer.from('abcde')],
  ['br', Buffer.from('abcde')],
  ['gzip', gzipSync(JSON.stringify({ title: '被截断的正文'.repeat(20) })).subarray(0, 30)],
];

/**
 * Hostile requests at the front door in both run modes (issue 35): corrupt and unknown body encodings on write
 * calls of every service, headers and URLs past the parser's limit, and methods a path is not served with.
 */
describe.each<RunMode>(['embedded', 'distributed'])('hostile requests answer the envelope, never a server error (%s mode)', (mode) => {
  let stack: ProductStack;
  let student: StackUser;

  beforeAll(async () => {
    stack = await startProductStack(mode, { WEB_DIST_DIR: webFixture() });
    student = await stack.signUp('压缩测试');
  }, 200_000);

  afterAll(async () => {
    await stack?.stop();
  });

  /** One call over node:http, which sends what fetch will not (TRACE, any header, a body of any encoding). */
  const send = (method: string, path: string, headers: Record<string, string> = {}, body?: Buffer): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const url = new URL(path, stack.base);
      const call = request(url, { method, headers: { 'x-forwarded-for': stack.clientAddress, ...headers, ...(body ? { 'content-length': String(body.length) } : {}) } }, (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          resolve({ status: answer.statusCode ?? 0, headers: answer.headers, body: text ? (JSON.parse(text) as unknown) : null });
        });
      });
      call.on('error', reject);
      call.end(body);
    });

  it('answers a body its Content-Encoding cannot decode with 400 on write calls of every service, with and without a token', async () => {
    const failures: string[] = [];
    for (const [method, path] of writeRoutes(student)) {
      for (const token of [student.token, null]) {
        for (const [encoding, body] of corruptBodies) {
          const headers: Record<string, string> = { 'content-type': 'application/json', 'content-encoding': encoding };
          if (token) headers.authorization = `Bearer ${token}`;
          const answer = await send(method, path, headers, body);
          if (answer.status !== 400 || JSON.stringify(answer.body) !== JSON.stringify(NOT_DECODABLE)) {
            failures.push(`${method} ${path} ${encoding}${token ? ' (token)' : ''} → ${answer.status} ${JSON.stringify(answer.body)}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('answers an encoding it does not support with 415', async () => {
    for (const [method, path, json] of writeRoutes(student)) {
      for (const encoding of ['compress', 'x-unknown', 'gzip, gzip']) {
        const answer = await send(method, path, { 'content-type': 'application/json', 'content-encoding': encoding, authorization: `Bearer ${student.token}` }, Buffer.from(JSON.stringify(json)));
        expect({ call: `${method} ${path} ${encoding}`, status: answer.status, body: answer.body }).toEqual({
          call: `${method} ${path} ${encoding}`,
          status: 415,
          body: { code: 415, message: '不支持的请求编码', data: null },
        });
      }
    }
  });

  it('answers a body written in a charset other than UTF-8 with 415, and reads one that names UTF-8', async () => {
    for (const [method, path, json] of writeRoutes(student)) {
      for (const type of ['application/json; charset=latin1', 'application/json; charset="utf-16"', 'application/x-www-form-urlencoded; charset=gbk']) {
        const answer = await send(method, path, { 'content-type': type, authorization: `Bearer ${student.token}` }, Buffer.from(JSON.stringify(json)));
        expect({ call: `${method} ${path} ${type}`, status: answer.status, body: answer.body }).toEqual({
          call: `${method} ${path} ${type}`,
          status: 415,
          body: { code: 415, message: '不支持的字符编码', data: null },
        });
      }
    }
    const body = Buffer.from(JSON.stringify({ user_id: student.userId, password: 'secret-123' }));
    for (const type of ['application/json; charset=utf-8', 'application/json; charset=UTF8']) {
      expect({ type, status: (await send('POST', '/api/auth/login', { 'content-type': type }, body)).status }).toEqual({ type, status: 200 });
    }
  });

  it('answers a form of more than 1,000 fields with 413 instead of reading part of it', async () => {
    const fields = (count: number) => Buffer.from(Array.from({ length: count }, (_, at) => `f${at}=1`).join('&'));
    const answer = await send('POST', '/api/auth/login', { 'content-type': 'application/x-www-form-urlencoded' }, fields(1001));
    expect([answer.status, answer.body]).toEqual([413, { code: 413, message: '请求参数过多', data: null }]);
    // At the limit the form is read, and the login refuses it for what it is: no product ID.
    expect((await send('POST', '/api/auth/login', { 'content-type': 'application/x-www-form-urlencoded' }, fields(1000))).status).toBe(400);
  });

  it('still reads a body that is compressed whole', async () => {
    const body = JSON.stringify({ user_id: student.userId, password: 'secret-123' });
    for (const [encoding, compressed] of [
      ['gzip', gzipSync(body)],
      ['deflate', deflateSync(body)],
      ['br', brotliCompressSync(body)],
    ] as const) {
      const answer = await send('POST', '/api/auth/login', { 'content-type': 'application/json', 'content-encoding': encoding }, compressed);
      expect({ encoding, status: answer.status }).toEqual({ encoding, status: 200 });
    }
  });

  it('answers headers or a URL over 16 KB with a 431 envelope', async () => {
    const refused = { code: 431, message: '请求头或请求地址过长', data: null };
    const longHeader = await send('GET', '/api/posts', { 'x-padding': 'x'.repeat(17 * 1024) });
    expect({ status: longHeader.status, body: longHeader.body }).toEqual({ status: 431, body: refused });
    const longUrl = await send('GET', `/api/search?keyword=${'a'.repeat(17 * 1024)}`);
    expect({ status: longUrl.status, body: longUrl.body }).toEqual({ status: 431, body: refused });
    expect(longUrl.headers['content-type']).toContain('application/json');
  });

  it('answers a method a path is not served with 405 and the methods it is, and a path that does not exist 404', async () => {
    const notAllowed = { code: 405, message: '不支持该请求方法', data: null };
    for (const [method, path, allow] of [
      ['TRACE', '/api/auth/login', 'POST'],
      ['PATCH', '/api/auth/login', 'POST'],
      ['GET', '/api/auth/login', 'POST'],
      ['TRACE', '/api/posts/1', 'GET, PUT, DELETE, HEAD'],
      ['PROPFIND', '/api/likes', 'POST, DELETE'],
      ['TRACE', '/api/health', 'GET, HEAD'],
      ['POST', '/api/files/images/none.png', 'GET, HEAD'],
    ]) {
      const answer = await send(method, path);
      expect({ call: `${method} ${path}`, status: answer.status, allow: answer.headers.allow, body: answer.body }).toEqual({ call: `${method} ${path}`, status: 405, allow, body: notAllowed });
    }
    for (const [method, path] of [
      ['TRACE', '/api/no-such-thing'],
      ['PATCH', '/api/posts/1/unknown'],
    ]) {
      const answer = await send(method, path);
      expect({ call: `${method} ${path}`, status: answer.status, body: answer.body }).toEqual({ call: `${method} ${path}`, status: 404, body: { code: 404, message: '资源不存在', data: null } });
    }
  });

  it("answers a method Node's parser does not know as any other unserved method", async () => {
    const raw = (line: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(Number(new URL(stack.base).port), '127.0.0.1', () => socket.write(`${line}\r\nHost: x\r\n\r\n`));
        const chunks: Buffer[] = [];
        socket.on('data', (chunk: Buffer) => chunks.push(chunk));
        socket.on('end', () => resolve(Buffer.concat(chunks).toString()));
        socket.on('error', reject);
      });
    const existing = await raw('FOO /api/auth/login HTTP/1.1');
    expect(existing).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\n/);
    expect(existing).toMatch(/\r\nAllow: POST\r\n/);
    expect(existing.split('\r\n\r\n')[1]).toBe(JSON.stringify({ code: 405, message: '不支持该请求方法', data: null }));
    const missing = await raw('FOO /api/no-such-thing HTTP/1.1');
    expect(missing).toMatch(/^HTTP\/1\.1 404 Not Found\r\n/);
    expect(missing.split('\r\n\r\n')[1]).toBe(JSON.stringify({ code: 404, message: '资源不存在', data: null }));
  });
});
