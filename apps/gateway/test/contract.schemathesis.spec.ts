import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { type ProductStack, type RunMode, startProductStack } from './product-stack';
import { API_DOCUMENT, findingsOf, isServerErrorOnly, runSchemathesis } from './schemathesis';

/**
 * The contract, checked by schemathesis against the distributed product: every documented operation is called
 * with inputs drawn from its own schema (and, for reads, with the ids of a real student, note and comment), and
 * every answer must carry a status the document lists for it and match the schema documented for that status.
 * Server errors are the fuzz run's to find (fuzz.schemathesis.spec.ts).
 */
describe.each<RunMode>(['distributed', 'embedded'])('the API keeps its documented contract (schemathesis, %s mode)', (mode) => {
  let stack: ProductStack;
  const dir = mkdtempSync(join(tmpdir(), 'shiliu-contract-'));

  beforeAll(async () => {
    // A generous rate limit: the run makes a few thousand requests a minute from one address.
    stack = await startProductStack(mode, { RATE_LIMIT_PER_MINUTE: '1000000' });
  }, 200_000);

  afterAll(async () => {
    await stack?.stop();
  });

  it('answers only documented statuses, each with its documented schema', async () => {
    const student = await stack.signUp('契约测试');
    const key = `images/contract/${randomUUID()}.png`;
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 255, g: 36, b: 66 } } }).png().toBuffer();
    await stack.storage.put(key, png, 'image/png');
    const note = await stack.call<{ id: number }>('POST', '/api/posts', { title: '契约', content: '<p>正文</p>', category_id: 1, type: 1, images: [`/api/files/${key}`], tags: ['契约'] }, student.token);
    expect(note.status).toBe(200);
    const comment = await stack.call<{ id: number }>('POST', '/api/comments', { post_id: note.body.data.id, content: '评论' }, student.token);
    await stack.call('POST', '/api/comments', { post_id: note.body.data.id, content: '回复', parent_id: comment.body.data.id }, student.token);

    const administrator = await stack.call<{ tokens: { access_token: string } }>('POST', '/api/auth/admin/login', { username: 'admin', password: stack.adminPassword });
    expect(administrator.status).toBe(200);

    // Reads get real ids so that their answers (not only their 404s) are checked; writes keep drawing their own.
    // The back office's calls carry the administrator's token instead of the student's.
    const config = join(dir, 'schemathesis.toml');
    const reads = [
      ['^/api/users/\\\\{user_id\\\\}', `user_id = "${student.userId}"`],
      ['^/api/posts/\\\\{id\\\\}', `id = ${note.body.data.id}`],
      ['^/api/comments/\\\\{id\\\\}', `id = ${comment.body.data.id}`],
      ['^/api/files/', `path = "${key}"`],
    ].map(([path, parameters]) => `[[operations]]\ninclude-method = "GET"\ninclude-path-regex = "${path}"\nparameters = { ${parameters} }\n`);
    const backOffice = `[[operations]]\ninclude-path-regex = "^/api/(auth/)?admin/"\nheaders = { Authorization = "Bearer ${administrator.body.data.tokens.access_token}" }\n`;
    writeFileSync(config, [...reads, backOffice].join('\n'));
    const run = await runSchemathesis(stack.base, [
      '--checks', 'status_code_conformance,response_schema_conformance',
      '--mode', 'positive',
      '--phases', 'examples,fuzzing',
      '--max-examples', '25',
      '--seed', '20261122',
      '--workers', '2',
      '--request-timeout', '30',
      '--header', `Authorization: Bearer ${student.token}`,
      '--header', `X-Forwarded-For: ${stack.clientAddress}`,
      // Signing out would end the sessions the other calls run in.
      '--exclude-operation-id', 'AccountsController_logout',
      '--exclude-operation-id', 'AdminAuthController_logout',
      // A stream that never ends is read until the request timeout on every example; its own tests check it (libs/notify/test/unread-stream.spec.ts, gateway.stream.spec.ts).
      '--exclude-operation-id', 'UnreadStreamController_stream',
    ], { configFile: config });
    writeFileSync(join(dir, 'output.txt'), run.output);
    // Every documented operation but the two sign-outs and the stream excluded above.
    const documented = JSON.parse(readFileSync(API_DOCUMENT, 'utf8')) as { paths: Record<string, object> };
    const operations = Object.values(documented.paths).reduce((count, item) => count + Object.keys(item).length, 0);
    expect(run.output).toMatch(new RegExp(`Tested: ${operations - 3}\\b`));
    const findings = findingsOf(run.output);
    if (run.exitCode !== 0) expect(findings.length).toBeGreaterThan(0);
    expect(findings.filter((finding) => !isServerErrorOnly(finding)).map((finding) => finding.detail)).toEqual([]);
  }, 900_000);

  it('would catch an answer that differs from its schema', async () => {
    // The same harness against a document that wants a field the categories do not have.
    const document = JSON.parse(readFileSync(API_DOCUMENT, 'utf8')) as { components: { schemas: Record<string, { required: string[] }> } };
    document.components.schemas.CategoryRow.required.push('renamed_field');
    const changed = join(dir, 'changed-openapi.json');
    writeFileSync(changed, JSON.stringify(document));
    const run = await runSchemathesis(stack.base, ['--checks', 'response_schema_conformance', '--max-examples', '1', '--include-operation-id', 'CategoryController_list', '--header', `X-Forwarded-For: ${stack.clientAddress}`], {
      document: changed,
    });
    expect(findingsOf(run.output)).toEqual([expect.objectContaining({ operation: 'GET /api/categories', checks: [expect.stringMatching(/^ST\d+ Response violates schema$/)] })]);
    expect(findingsOf(run.output)[0].detail).toContain('renamed_field');
  }, 120_000);
});
