import { type INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { MetadataStorage } from 'class-transformer/types/MetadataStorage';
import { validationMetadatasToSchemas } from 'class-validator-jsonschema';
import type { DataSource } from 'typeorm';
import type { RevocationList } from '../auth/revocation-list';
import type { TokenVerifier } from '../auth/token-verifier';
import { createLogger } from '../logging/logger';
import type { ObjectStorage } from '../storage/object-storage';
import { PlatformModule } from './platform.module';
import type { ServiceDefinition } from './service-definition';

// class-transformer's @Type() says which class a nested field holds (a note form's video); its storage has no
// public export, and its types sit apart from the CommonJS file that holds it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as { defaultMetadataStorage: MetadataStorage };

/**
 * The JSON schemas class-validator's rules describe, by class name: request bodies and query strings. Swagger
 * names each request DTO but, without @ApiProperty on every field, describes it as an empty object; the rules
 * on the DTO already say what each field must be.
 */
export function dtoSchemas(): NonNullable<OpenAPIObject['components']>['schemas'] & object {
  // The two libraries type the same OpenAPI 3 schema objects separately.
  return validationMetadatasToSchemas({ refPointerPrefix: '#/components/schemas/', classTransformerMetadataStorage: defaultMetadataStorage }) as unknown as NonNullable<NonNullable<OpenAPIObject['components']>['schemas']>;
}

/** A service's own document: its controllers' routes and decorators, its request DTOs' rules. */
export function serviceOpenApi(app: INestApplication, definition: ServiceDefinition): OpenAPIObject {
  const document = SwaggerModule.createDocument(app, new DocumentBuilder().setTitle(`shiliu-${definition.name}`).setVersion('1.2.0').addBearerAuth().build());
  const derived = dtoSchemas();
  const schemas: typeof derived = {};
  // Swagger names the request DTOs; their rules name the nested DTOs they hold.
  const add = (name: string): void => {
    if (name in schemas) return;
    schemas[name] = derived[name] ?? document.components!.schemas![name];
    for (const [, nested] of JSON.stringify(schemas[name]).matchAll(/"#\/components\/schemas\/([^"]+)"/g)) add(nested);
  };
  Object.keys(document.components?.schemas ?? {}).forEach(add);
  return { ...document, components: { ...document.components, schemas } };
}

/**
 * The same document without a database or any other infrastructure: Nest's preview mode resolves the modules
 * and their routes but instantiates nothing, so the stand-ins below are never touched.
 */
export async function previewServiceOpenApi(definition: ServiceDefinition): Promise<OpenAPIObject> {
  @Module({
    imports: [
      PlatformModule.forService({
        service: definition.name,
        dataSource: {} as DataSource,
        tokenVerifier: {} as TokenVerifier,
        objectStorage: {} as ObjectStorage,
        logger: createLogger(definition.name, 'silent'),
        redis: null,
        secrets: {},
        revocations: {} as RevocationList,
        readinessChecks: [],
      }),
      definition.module,
    ],
  })
  class PreviewRootModule {}
  const app = await NestFactory.create(PreviewRootModule, new FastifyAdapter(), { preview: true, logger: false, abortOnError: false });
  try {
    return serviceOpenApi(app, definition);
  } finally {
    await app.close();
  }
}
