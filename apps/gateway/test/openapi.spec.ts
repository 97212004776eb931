import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OpenAPIObject } from '@nestjs/swagger';
import { API_DOCUMENT_FILE, apiDocument } from '@shiliu/contracts';
import { mergeOpenApi } from '@shiliu/gateway';
import { buildOpenApi, openApiProblems, webApiTypes, webApiTypesFile } from '../src/openapi/build-openapi';

type Operation = { parameters?: { name: string; in: string }[]; responses: Record<string, { content?: Record<string, { schema: unknown }> }>; requestBody?: unknown };

/** The checked-in API document: made from the code, valid OpenAPI 3, and complete for every operation. */
describe('the OpenAPI document', () => {
  let built: OpenAPIObject;

  beforeAll(async () => {
    built = await buildOpenApi();
  });

  const operations = (document: OpenAPIObject): [string, Operation][] =>
    Object.entries(document.paths).flatMap(([path, item]) => Object.entries(item as Record<string, Operation>).map(([method, operation]) => [`${method.toUpperCase()} ${path}`, operation] as [string, Operation]));

  it('is the one the code makes, and the web app’s types are the ones it makes (run `npx nx run @shiliu/app-gateway:openapi` after changing a call)', async () => {
    expect(JSON.parse(readFileSync(API_DOCUMENT_FILE, 'utf8'))).toEqual(built);
    expect(readFileSync(webApiTypesFile, 'utf8')).toBe(webApiTypes(built));
  });

  it('types the web app, so that a field renamed on the server fails the web app’s typecheck', () => {
    const repoRoot = join(__dirname, '../../..');
    mkdirSync(join(repoRoot, 'tmp'), { recursive: true });
    // A copy of the web app inside the checkout (its imports resolve from the checkout's node_modules), typed by the document given.
    const dir = mkdtempSync(join(repoRoot, 'tmp', 'web-typecheck-'));
    for (const part of ['src', 'tsconfig.json', 'vite.config.ts']) cpSync(join(repoRoot, 'apps/web', part), join(dir, part), { recursive: true });
    const typecheck = (document: OpenAPIObject): string => {
      writeFileSync(join(dir, 'src/lib/api/schema.d.ts'), webApiTypes(document));
      const tsc = spawnSync(process.execPath, [join(repoRoot, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', join(dir, 'tsconfig.json')], { encoding: 'utf8' });
      return tsc.stdout + tsc.stderr;
    };
    try {
      expect(typecheck(built)).toBe('');
      const renamed = structuredClone(built);
      const note = renamed.components!.schemas!.PostView as { properties: Record<string, unknown>; required: string[] };
      note.properties.cover_image = note.properties.image;
      delete note.properties.image;
      note.required = note.required.map((name) => (name === 'image' ? 'cover_image' : name));
      expect(typecheck(renamed)).toMatch(/\.tsx?\(\d+,\d+\): error TS\d+: .*['"]image['"]/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is valid OpenAPI 3', async () => {
    expect(await openApiProblems(apiDocument())).toEqual([]);
    // The check can fail: a path parameter nobody declares and a reference to nothing are both caught.
    const broken = structuredClone(built);
    (broken.paths['/api/files/{path}'].get!.parameters as unknown[]) = [];
    (broken.paths['/api/categories'].get!.responses['200'] as { content: Record<string, { schema: unknown }> }).content['application/json'].schema = { $ref: '#/components/schemas/Object' };
    const problems = await openApiProblems(broken);
    expect(problems.some((problem) => problem.startsWith('path-parameters-defined'))).toBe(true);
    expect(problems.some((problem) => problem.startsWith('no-unresolved-refs'))).toBe(true);
  });

  it('gives every operation its parameters, its answer inside the envelope, 200 for success and its error statuses', () => {
    for (const [name, operation] of operations(built)) {
      expect([name, operation.responses['201']]).toEqual([name, undefined]);
      expect([name, operation.responses['200']]).not.toEqual([name, undefined]);
      expect([name, operation.responses['429']]).not.toEqual([name, undefined]);
      if (operation.requestBody) expect([name, Object.keys(operation.responses)]).toEqual([name, expect.arrayContaining(['400', '413'])]);
      if (operation.parameters?.some((parameter) => parameter.in === 'path')) expect([name, Object.keys(operation.responses)]).toEqual([name, expect.arrayContaining(['404'])]);
    }
    const feed = built.paths['/api/posts'].get as unknown as Operation;
    expect(feed.parameters!.map((parameter) => parameter.name)).toEqual(expect.arrayContaining(['page', 'limit', 'category', 'type', 'user_id', 'is_draft', 'keyword', 'sort']));
    expect(Object.keys(feed.responses).sort()).toEqual(['200', '400', '401', '403', '429']);
    const envelope = feed.responses['200'].content!['application/json'].schema as { properties: Record<string, unknown> };
    expect(envelope.properties.data).toEqual({ $ref: '#/components/schemas/PostPage' });
    const schemas = built.components!.schemas as Record<string, { properties: Record<string, unknown>; required?: string[] }>;
    expect(schemas.PostView.required).toEqual(expect.arrayContaining(['content', 'user_avatar', 'avatar', 'like_count', 'likeCount', 'verified', 'author_verified']));
    expect(schemas.CommentView.required).toEqual(expect.arrayContaining(['liked', 'isLiked', 'user_avatar', 'avatar']));
    expect(schemas.CommentView.properties.replies).toEqual({ type: 'array', items: { $ref: '#/components/schemas/CommentView' } });
    expect((built.paths['/api/files/{path}'].get!.parameters as { name: string; in: string }[])[0]).toMatchObject({ name: 'path', in: 'path' });
    expect(built.paths['/api/users/{user_id}'].put!.responses['403']).toBeDefined();
    expect(built.paths['/api/auth/register'].post!.responses['409']).toBeDefined();
  });

  it('documents 403 where a valid token of the other audience is refused, and no login where none is needed', () => {
    for (const [path, method] of [
      ['/api/auth/admin/admins', 'get'],
      ['/api/auth/admin/admins', 'post'],
      ['/api/auth/admin/admins/{id}', 'put'],
      ['/api/auth/admin/admins/{id}', 'delete'],
      ['/api/auth/admin/admins/{id}/password', 'put'],
    ] as const) {
      expect([path, method, built.paths[path][method]!.responses['403']]).toEqual([path, method, expect.objectContaining({ description: '禁止访问' })]);
    }
    // The header's search panel suggests to visitors too (public-side.md: a visitor can search).
    expect(built.paths['/api/search/suggest'].get!.security).toBeUndefined();
    expect(built.paths['/api/search/suggest'].get!.responses['401']).toBeUndefined();
    expect(built.paths['/api/search'].get!.security).toEqual([{}, { bearer: [] }]);
  });

  it('fails a merge where two services claim one call or give one schema name two shapes, instead of overwriting', () => {
    const service = (title: string, paths: OpenAPIObject['paths'], schemas: Record<string, object>): OpenAPIObject => ({ openapi: '3.0.3', info: { title, version: '1' }, paths, components: { schemas } });
    const shared = { type: 'object', properties: { id: { type: 'number' } } };
    expect(mergeOpenApi([service('a', { '/x': { get: { responses: {} } } }, { Shared: shared }), service('b', { '/x': { post: { responses: {} } } }, { Shared: shared })]).paths['/x']).toEqual({
      get: { responses: {} },
      post: { responses: {} },
    });
    expect(() => mergeOpenApi([service('a', { '/x': { get: { responses: {} } } }, {}), service('b', { '/x': { get: { responses: {} } } }, {})])).toThrow('GET /x is served by both a and b');
    expect(() => mergeOpenApi([service('a', {}, { Card: shared }), service('b', {}, { Card: { type: 'string' } })])).toThrow('schema Card of b differs from the one of a');
  });
});
