import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OpenAPIObject } from '@nestjs/swagger';
import { BaseResolver, createConfig, lintDocument, makeDocumentFromString } from '@redocly/openapi-core';
import type { OperationObject, ParameterObject, PathItemObject, ResponseObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { authService } from '@shiliu/auth';
import { contentService } from '@shiliu/content';
import { mergeOpenApi } from '@shiliu/gateway';
import { mediaService } from '@shiliu/media';
import { notifyService } from '@shiliu/notify';
import {
  AUTH_METADATA,
  type AuthRequirement,
  dtoSchemas,
  ERROR_ENVELOPE_SCHEMA,
  type ErrorStatus,
  messageForStatus,
  previewServiceOpenApi,
  type ServiceDefinition,
} from '@shiliu/platform';
import { searchService } from '@shiliu/search';
import { socialService } from '@shiliu/social';
import { type Schema, TypeSchemas } from './type-schemas';

export const services: ServiceDefinition[] = [authService, contentService, socialService, notifyService, searchService, mediaService];

const repoRoot = join(__dirname, '../../../..');
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

const errorEnvelope: SchemaObject = {
  type: 'object',
  required: ['code', 'message', 'data'],
  properties: { code: { type: 'integer' }, message: { type: 'string' }, data: {} },
};

function successEnvelope(data: Schema): SchemaObject {
  return {
    type: 'object',
    required: ['code', 'message', 'data'],
    properties: { code: { type: 'integer', enum: [200] }, message: { type: 'string' }, data },
  };
}

function errorResponse(status: ErrorStatus): ResponseObject {
  return { description: messageForStatus(status), content: { 'application/json': { schema: { $ref: `#/components/schemas/${ERROR_ENVELOPE_SCHEMA}` } } } };
}

/** Controller classes by name, read from the modules a service imports. */
function controllersOf(module: object, found = new Map<string, Function>()): Map<string, Function> {
  for (const controller of (Reflect.getMetadata('controllers', module) as Function[] | undefined) ?? []) found.set(controller.name, controller);
  for (const imported of (Reflect.getMetadata('imports', module) as object[] | undefined) ?? []) controllersOf(imported, found);
  return found;
}

/** Where the web app's API types are generated: its client is typed by them. */
export const webApiTypesFile = join(repoRoot, 'apps/web/src/lib/api/schema.d.ts');

/** The web app's types for every path and answer, by openapi-typescript's command (an ES module, which Jest cannot load). */
export function webApiTypes(document: OpenAPIObject): string {
  const dir = mkdtempSync(join(tmpdir(), 'shiliu-openapi-'));
  try {
    const source = join(dir, 'openapi.json');
    writeFileSync(source, JSON.stringify(document));
    const types = execFileSync(process.execPath, [join(repoRoot, 'node_modules/openapi-typescript/bin/cli.js'), source], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return `// Generated from libs/contracts/openapi.json by \`nx run @shiliu/app-gateway:openapi\`; do not edit.\n\n${types}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What makes the document invalid OpenAPI 3 (structure, unresolved references, undeclared path parameters); empty when valid. */
export async function openApiProblems(document: OpenAPIObject): Promise<string[]> {
  const config = await createConfig({
    rules: { struct: 'error', 'no-unresolved-refs': 'error', 'path-parameters-defined': 'error', 'operation-operationId-unique': 'error', 'no-identical-paths': 'error' },
  });
  const problems = await lintDocument({
    document: makeDocumentFromString(JSON.stringify(document), 'openapi.json'),
    config: config.styleguide,
    externalRefResolver: new BaseResolver(),
  });
  return problems.filter((problem) => problem.severity === 'error').map((problem) => `${problem.ruleId}: ${problem.message} (${problem.location[0]?.pointer ?? ''})`);
}

/** A DTO's rules with those it inherits (a list query extends the shared paging query). */
function validationRules(dto: Function, requests: Record<string, SchemaObject>): { properties: Record<string, Schema>; required: string[] } {
  const rules = { properties: {} as Record<string, Schema>, required: [] as string[] };
  for (let type = dto; type && type !== Object && type.name; type = Object.getPrototypeOf(type) as Function) {
    const own = requests[type.name];
    if (!own) continue;
    rules.properties = { ...own.properties, ...rules.properties };
    rules.required.push(...(own.required ?? []).filter((name) => !rules.required.includes(name)));
  }
  if (Object.keys(rules.properties).length === 0) throw new Error(`no validation rules for the query ${dto.name}`);
  return rules;
}

/**
 * One service's document made complete: the success answer's schema inside the envelope (from the handler's
 * TypeScript return type), the query parameters (from the query DTO's validation rules), and every error status
 * the operation can answer. A created resource answers 200, as every success does (DESIGN.md §4).
 */
function complete(document: OpenAPIObject, definition: ServiceDefinition, types: TypeSchemas): OpenAPIObject {
  const controllers = controllersOf(definition.module);
  const components: Record<string, SchemaObject> = { ...(document.components?.schemas as Record<string, SchemaObject>), [ERROR_ENVELOPE_SCHEMA]: errorEnvelope };
  const requests = dtoSchemas();
  for (const item of Object.values(document.paths) as PathItemObject[]) {
    for (const method of METHODS) {
      const operation = item[method];
      if (operation) completeOperation(operation, controllers, types, components, requests as Record<string, SchemaObject>);
    }
  }
  return { ...document, components: { ...document.components, schemas: components } };
}

function completeOperation(
  operation: OperationObject,
  controllers: Map<string, Function>,
  types: TypeSchemas,
  components: Record<string, SchemaObject>,
  requests: Record<string, SchemaObject>,
): void {
  const [controllerName, handlerName] = operation.operationId!.split('_');
  const controller = controllers.get(controllerName);
  if (!controller) throw new Error(`operation ${operation.operationId}: controller ${controllerName} is not in the service's modules`);
  const handler = (controller.prototype as Record<string, object>)[handlerName];
  const auth = (Reflect.getMetadata(AUTH_METADATA, handler) ?? Reflect.getMetadata(AUTH_METADATA, controller)) as AuthRequirement | undefined;
  const { data, queryIndex } = types.handler(controllerName, handlerName, components);

  const parameters = (operation.parameters ?? []) as ParameterObject[];
  if (queryIndex !== null) {
    const queryClass = (Reflect.getMetadata('design:paramtypes', controller.prototype, handlerName) as Function[])[queryIndex];
    const query = validationRules(queryClass, requests);
    for (const [name, schema] of Object.entries(query.properties)) parameters.push({ name, in: 'query', required: query.required.includes(name), schema });
  }
  operation.parameters = parameters;

  const responses = operation.responses;
  const declared = responses['200'] as ResponseObject | undefined;
  delete responses['201'];
  if (!declared?.content) responses['200'] = { description: 'success', content: { 'application/json': { schema: successEnvelope(data) } } };

  const statuses = new Set<ErrorStatus>([429]);
  if (parameters.length > 0 || operation.requestBody) statuses.add(400);
  if (operation.requestBody) statuses.add(413);
  if (parameters.some((parameter) => parameter.in === 'path')) statuses.add(404);
  if (auth) {
    statuses.add(401);
    if (auth.otherAudienceForbidden) statuses.add(403);
    operation.security = auth.optional ? [{}, { bearer: [] }] : [{ bearer: [] }];
  } else {
    // A controller's @ApiBearerAuth reaches its public routes too; they need no login.
    delete operation.security;
  }
  for (const status of statuses) responses[String(status)] ??= errorResponse(status);
}

/**
 * The whole API as one document: every service's, completed, merged (a name two services use differently
 * fails the merge). No database or other infrastructure is needed, so a build and a test can both make it.
 */
export async function buildOpenApi(): Promise<OpenAPIObject> {
  const types = new TypeSchemas(
    join(repoRoot, 'tsconfig.base.json'),
    services.map((definition) => join(repoRoot, 'libs', definition.name, 'src')),
  );
  const documents: OpenAPIObject[] = [];
  for (const definition of services) documents.push(complete(await previewServiceOpenApi(definition), definition, types));
  return mergeOpenApi(documents);
}
