import type { OpenAPIObject } from '@nestjs/swagger';

/** One document for the whole API: every service's paths and schemas side by side. */
export function mergeOpenApi(documents: OpenAPIObject[]): OpenAPIObject {
  const merged: OpenAPIObject = {
    openapi: '3.0.0',
    info: { title: 'Shiliu API', version: '1.2.0', description: '拾柳校园图文社区 API' },
    servers: [{ url: '/' }],
    paths: {},
    components: { schemas: {}, securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
  };
  for (const document of documents) {
    Object.assign(merged.paths, document.paths);
    Object.assign(merged.components!.schemas!, document.components?.schemas ?? {});
  }
  return merged;
}
