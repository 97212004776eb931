import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import sharp from 'sharp';
import { type ProductStack, type RunMode, type StackUser, startProductStack } from './product-stack';
import { API_DOCUMENT, findingsOf, runSchemathesis } from './schemathesis';

interface Parameter {
  name: string;
  in: 'path' | 'query';
  schema: Schema;
}
interface Schema {
  $ref?: string;
  type?: string;
  properties?: Record<string, Schema>;
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema } | undefined> };
}
interface ServerError {
  operation: string;
  input: Cause;
  status: number;
}

/** The back office's calls, which take an administrator's token. */
const ADMIN_PATH = /^\/api\/(auth\/)?admin\//;

/** Hostile inputs, each built from an operation's own parameters and body schema. */
const NUL = 'a\u0000b';
const HUGE = 1e300;
const hostileInputs = ['nul-bytes', 'huge-numbers', 'deep-json', 'lone-surrogates', 'body-over-1mb', 'malformed-json', 'corrupt-gzip', 'corrupt-deflate', 'corrupt-br', 'cut-off-gzip', 'unknown-encoding'] as const;
type Hostile = (typeof hostileInputs)[number];

/** Bodies that claim a Content-Encoding they do not have (or one no server knows), sent to every write operation. */
const encodedBodies: Partial<Record<Hostile, [encoding: string, body: Buffer]>> = {
  'corrupt-gzip': ['gzip', Buffer.from('abcde')],
  'corrupt-deflate': ['deflate', Buffer.from('abcde')],
  'corrupt-br': ['br', Buffer.from('abcde')],
  'cut-off-gzip': ['gzip', gzipSync(JSON.stringify({ title: '被截断'.repeat(30) })).subarray(0, 24)],
  'unknown-encoding': ['x-unknown', Buffer.from('{}')],
};
type Cause = Hostile | 'other';

/** What made a request schemathesis generated hostile, read from the request it prints. */
function causeOf(request: string): Cause {
  if (/\\u0000|%00/i.test(request)) return 'nul-bytes';
  if (/\\ud[89ab][0-9a-f]{2}|%ED%[AB][0-9A-F]/i.test(request)) return 'lone-surrogates';
  // Beyond PostgreSQL's integer (ten digits).
  if (/\d{11,}|\d[eE]\+?\d{2,}/.test(request)) return 'huge-numbers';
  return 'other';
}

/**
 * The fuzz run for issue 8: every documented operation, schemathesis's own generation in every mode (valid and
 * invalid data, NUL bytes allowed) plus the hostile inputs above, more than 5,000 requests in all; no answer may
 * be a server error.
 */
describe.each<RunMode>(['distributed', 'embedded'])('no input makes the API answer a server error (fuzzing, %s mode)', (mode) => {
  let stack: ProductStack;
  let student: StackUser;
  let adminToken: string;
  const dir = mkdtempSync(join(tmpdir(), 'shiliu-fuzz-'));
  const document = JSON.parse(readFileSync(API_DOCUMENT, 'utf8')) as { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };

  beforeAll(async () => {
    // Limits generous enough for the run's thousands of calls from one address and one student.
    const limits = { RATE_LIMIT_PER_MINUTE: '1000000', MEDIA_UPLOADS_PER_USER_PER_MINUTE: '1000000' };
    stack = await startProductStack(mode, limits, { serviceEnv: limits });
    student = await stack.signUp('模糊测试');
    adminToken = (await stack.call<{ tokens: { access_token: string } }>('POST', '/api/auth/admin/login', { username: 'admin', password: stack.adminPassword })).body.data.tokens.access_token;
  }, 200_000);

  afterAll(async () => {
    await stack?.stop();
  });

  const resolve = (schema: Schema): Schema => (schema.$ref ? resolve(document.components.schemas[schema.$ref.split('/').pop()!]) : schema);

  /** A value of this schema's kind, made hostile. */
  const hostileValue = (schema: Schema, kind: Hostile): unknown => {
    const resolved = resolve(schema);
    if (resolved.type === 'number' || resolved.type === 'integer') return kind === 'huge-numbers' ? HUGE : 1;
    if (resolved.type === 'object') return Object.fromEntries(Object.entries(resolved.properties ?? {}).map(([name, property]) => [name, hostileValue(property, kind)]));
    if (resolved.type === 'array') return [kind === 'nul-bytes' ? NUL : kind === 'huge-numbers' ? HUGE : 'x'];
    if (resolved.type === 'boolean') return true;
    return kind === 'nul-bytes' ? NUL : kind === 'lone-surrogates' ? '\ud800x' : 'x';
  };

  const pathValue = (name: string): string => (name === 'user_id' ? student.userId : name === 'path' ? 'images/none.png' : '1');

  /** The answer's status, or null for an input that does not apply to the operation (an encoded body on a read). */
  const send = async (method: string, path: string, operation: Operation, kind: Hostile): Promise<number | null> => {
    const query = new URLSearchParams();
    for (const parameter of operation.parameters ?? []) {
      if (parameter.in !== 'query') continue;
      const value = hostileValue(parameter.schema, kind);
      query.set(parameter.name, typeof value === 'string' ? value : JSON.stringify(value));
    }
    const url = `${stack.base}${path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(kind === 'nul-bytes' ? NUL : pathValue(name)))}${query.size > 0 ? `?${query}` : ''}`;
    const headers: Record<string, string> = {
      authorization: `Bearer ${ADMIN_PATH.test(path) ? adminToken : student.token}`,
      'x-forwarded-for': stack.clientAddress,
    };
    let body: string | Buffer | undefined;
    const encoded = encodedBodies[kind];
    if (encoded) {
      if (method === 'get') return null;
      headers['content-type'] = 'application/json';
      headers['content-encoding'] = encoded[0];
      body = encoded[1];
    } else if (operation.requestBody) {
      headers['content-type'] = 'application/json';
      // Upload calls take multipart forms; a JSON body there is one more input they must refuse cleanly.
      const schema = operation.requestBody.content['application/json']?.schema ?? { type: 'object' };
      if (kind === 'deep-json') body = `${'['.repeat(5000)}${']'.repeat(5000)}`;
      else if (kind === 'body-over-1mb') body = JSON.stringify({ ...(hostileValue(schema, kind) as object), padding: 'x'.repeat(1_100_000) });
      else if (kind === 'malformed-json') body = '{"title": "未闭合';
      // JSON.stringify writes a lone surrogate as the escape \ud800, which is what a hostile client sends.
      else body = JSON.stringify(hostileValue(schema, kind));
    }
    const answer = await fetch(url, { method: method.toUpperCase(), headers, body });
    await answer.arrayBuffer();
    return answer.status;
  };

  it('answers writes of one target sent at once without a server error: uploads of the same bytes, likes, collections, follows', async () => {
    const statuses: string[] = [];
    const at = async (label: string, calls: (() => Promise<number>)[]) => {
      for (const status of await Promise.all(calls.map((call) => call()))) statuses.push(`${label} → ${status}`);
    };
    const eight = <T>(make: (index: number) => T): T[] => Array.from({ length: 8 }, (_, index) => make(index));
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 80, b: 90 } } }).png().toBuffer();
    const upload = async (token: string) => {
      const form = new FormData();
      form.append('file', new Blob([png], { type: 'image/png' }), '同一张.png');
      const answer = await fetch(`${stack.base}/api/upload/single`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': stack.clientAddress } });
      return { status: answer.status, body: (await answer.json()) as { data: { url: string } } };
    };
    await at('8 × POST /api/upload/single (the same bytes)', eight(() => () => upload(student.token).then((answer) => answer.status)));

    const other = await stack.signUp('同时关注');
    const url = (await upload(other.token)).body.data.url;
    const note = await stack.call<{ id: number }>('POST', '/api/posts', { title: '同时', content: '<p>同时写</p>', category_id: 1, type: 1, images: [url] }, other.token);
    expect(note.status).toBe(200);
    const comment = await stack.call<{ id: number }>('POST', '/api/comments', { post_id: note.body.data.id, content: '同时点赞' }, other.token);
    expect(comment.status).toBe(200);

    const write = (method: string, path: string, body?: unknown) => () => stack.call(method, path, body, student.token).then((answer) => answer.status);
    for (let round = 0; round < 3; round++) {
      for (const target of [
        { target_type: 1, target_id: note.body.data.id },
        { target_type: 2, target_id: comment.body.data.id },
      ]) {
        await at(`8 × POST /api/likes ${JSON.stringify(target)}`, eight(() => write('POST', '/api/likes', target)));
        await at(`8 × DELETE /api/likes ${JSON.stringify(target)}`, eight(() => write('DELETE', '/api/likes', target)));
        await at(`POST and DELETE /api/likes ${JSON.stringify(target)} at once`, eight((index) => write(index % 2 === 0 ? 'POST' : 'DELETE', '/api/likes', target)));
      }
      await at('8 × POST /api/posts/{id}/collect', eight(() => write('POST', `/api/posts/${note.body.data.id}/collect`)));
      await at('8 × DELETE /api/posts/{id}/collect', eight(() => write('DELETE', `/api/posts/${note.body.data.id}/collect`)));
      await at('8 × POST /api/users/{user_id}/follow', eight(() => write('POST', `/api/users/${other.userId}/follow`)));
      await at('8 × DELETE /api/users/{user_id}/follow', eight(() => write('DELETE', `/api/users/${other.userId}/follow`)));
    }
    console.log(`concurrent writes (${mode}):\n${[...new Set(statuses)].join('\n')}`);
    expect(statuses.filter((line) => /→ 5\d\d$/.test(line))).toEqual([]);
    // The same bytes at once are one upload: every one of them answered.
    expect(statuses.filter((line) => line.startsWith('8 × POST /api/upload/single'))).toEqual(Array(8).fill('8 × POST /api/upload/single (the same bytes) → 200'));
  }, 300_000);

  it('answers every operation without a server error, over more than 5,000 requests', async () => {
    const serverErrors: ServerError[] = [];
    let sent = 0;
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        // Signing out would end the sessions the other calls run in.
        if (operation.operationId.endsWith('_logout')) continue;
        for (const kind of hostileInputs) {
          const status = await send(method, path, operation, kind);
          if (status === null) continue;
          sent += 1;
          if (status >= 500) serverErrors.push({ operation: `${method.toUpperCase()} ${path}`, input: kind, status });
        }
      }
    }

    // The student's calls with a student's token; the back office's with an administrator's, after them, so that
    // its deletes cannot end the student's session first. Fewer examples there: its calls are many and alike.
    const fuzz = async (name: string, token: string, examples: number, filter: string[]) => {
      const report = join(dir, `${name}.json`);
      const run = await runSchemathesis(stack.base, [
        '--checks', 'not_a_server_error',
        '--mode', 'all',
        '--phases', 'fuzzing',
        '--generation-allow-x00', 'true',
        '--max-examples', String(examples),
        '--seed', '8',
        '--workers', '2',
        '--continue-on-failure',
        '--no-shrink',
        '--request-timeout', '30',
        '--header', `Authorization: Bearer ${token}`,
        '--header', `X-Forwarded-For: ${stack.clientAddress}`,
        '--exclude-operation-id', 'AccountsController_logout',
        '--exclude-operation-id', 'AdminAuthController_logout',
        ...filter,
        '--report', 'json', '--report-json-path', report,
      ]);
      writeFileSync(join(dir, `${name}.txt`), run.output);
      sent += (JSON.parse(readFileSync(report, 'utf8')) as { test_cases: { generated: number } }).test_cases.generated;
      for (const finding of findingsOf(run.output)) {
        for (const status of finding.statuses.filter((each) => each >= 500)) serverErrors.push({ operation: finding.operation, input: causeOf(finding.detail), status });
      }
    };
    await fuzz('student', student.token, 120, ['--exclude-path-regex', ADMIN_PATH.source]);
    // A password set on the acting administrator's id ends its sessions, and with them the rest of the run: the
    // three calls that set one get only the hostile inputs above.
    await fuzz('admin', adminToken, 50, [
      '--include-path-regex', ADMIN_PATH.source,
      '--exclude-operation-id', 'AdminAuthController_setPassword',
      '--exclude-operation-id', 'AdminAuthController_update',
      '--exclude-operation-id', 'AdminAdminsController_update',
    ]);
    // Still signed in: the back office's calls were fuzzed with an administrator's authority to the end.
    expect((await stack.call('GET', '/api/auth/admin/me', undefined, adminToken)).status).toBe(200);

    const line = (error: ServerError) => `${error.operation} ${error.input} → ${error.status}`;
    // Every server error with the input that caused it, in the test's output whether it passes or not.
    console.log(`fuzzing (${mode}): ${sent} requests; server errors:\n${[...new Set(serverErrors.map(line))].join('\n') || '(none)'}\nschemathesis output: ${dir}`);
    expect(sent).toBeGreaterThan(5000);
    expect([...new Set(serverErrors.map(line))]).toEqual([]);
  }, 1_200_000);
});
