import { isDeepStrictEqual } from 'node:util';
import type { OpenAPIObject } from '@nestjs/swagger';

/**
 * One document for the whole API: every service's paths and schemas side by side. A path two services both
 * serve, or a schema name two services give different shapes, fails the merge instead of overwriting.
 */
export function mergeOpenApi(documents: OpenAPIObject[]): OpenAPIObject {
  const merged: OpenAPIObject = {
    openapi: '3.0.3',
    info: { title: 'Shiliu API', version: '1.2.0', description: '拾柳校园图文社区 API' },
    servers: [{ url: '/' }],
    paths: {},
    components: { schemas: {}, securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
  };
  const owners = new Map<string, string>();
  for (const document of documents) {
    const owner = document.info.title;
    for (const [path, item] of Object.entries(document.paths)) {
      for (const method of Object.keys(item)) {
        const key = `${method.toUpperCase()} ${path}`;
        if (owners.has(key)) throw new Error(`OpenAPI merge: ${key} is served by both ${owners.get(key)} and ${owner}`);
        owners.set(key, owner);
      }
      merged.paths[path] = { ...merged.paths[path], ...item };
    }
    const schemas = merged.components!.schemas!;
    for (const [name, schema] of Object.entries(document.components?.schemas ?? {})) {
      if (name in schemas && !isDeepStrictEqual(schemas[name], schema)) {
        throw new Error(`OpenAPI merge: schema ${name} of ${owner} differs from the one of ${owners.get(`schema ${name}`)}`);
      }
      owners.set(`schema ${name}`, owners.get(`schema ${name}`) ?? owner);
      schemas[name] = schema;
    }
  }
  return merged;
}
