import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { validationMetadatasToSchemas } from 'class-validator-jsonschema';
import type { Redis } from 'ioredis';
import type { Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import type { RevocationList } from '../auth/revocation-list';
import type { TokenVerifier } from '../auth/token-verifier';
import { createServiceDataSource, migrate } from '../database/data-source';
import type { EventPublisher } from '../events/event-publisher';
import type { EventServer } from '../events/event-server';
import { InProcessEventPublisher, InProcessEventServer, type InProcessEventBus } from '../events/in-process';
import { KafkaEventPublisher } from '../events/kafka';
import { KafkaEventServer } from '../events/kafka-event.server';
import { OutboxRelay } from '../events/outbox-relay';
import { bodyErrorMiddleware, inputGuardMiddleware } from '../http/input-guard';
import { requestContextMiddleware } from '../http/request-context.middleware';
import { NestPinoLogger } from '../logging/nest-logger';
import { httpMetricsMiddleware } from '../metrics/metrics';
import type { ObjectStorage } from '../storage/object-storage';
import { PlatformModule } from './platform.module';
import type { ServiceDefinition } from './service-definition';
import type { ServiceSecrets } from './tokens';

export type EventTransport = { kind: 'kafka'; kafka: Kafka; sessionTimeoutMs?: number } | { kind: 'in-process'; bus: InProcessEventBus };

export interface ServiceRuntime {
  databaseUrl: string;
  tokenVerifier: TokenVerifier;
  /** One per process, shared by every service module it hosts and by the gateway. */
  revocations: RevocationList;
  objectStorage: ObjectStorage;
  events: EventTransport;
  logger: Logger;
  redis: Redis | null;
  secrets?: ServiceSecrets;
  poolSize?: number;
}

/** A service module running as a Nest application: its HTTP handlers, its event server and its outbox relay. */
export interface ServiceApp {
  definition: ServiceDefinition;
  app: NestExpressApplication;
  dataSource: DataSource;
  relay: OutboxRelay;
  openApi: OpenAPIObject;
  close(): Promise<void>;
}

/** The one limit on a request body other than uploads, in both modes: services and the gateway count arriving bytes against it. */
export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;
const JSON_BODY_LIMIT = `${JSON_BODY_LIMIT_BYTES}b`;

/**
 * Swagger names each request DTO but, without @ApiProperty on every field, describes it as an empty object. The
 * class-validator rules on the DTO already say what each field must be, so the schemas are derived from them.
 */
function withDtoSchemas(document: OpenAPIObject): OpenAPIObject {
  const named = document.components?.schemas ?? {};
  // The two libraries type the same OpenAPI 3 schema objects separately.
  const derived = validationMetadatasToSchemas({ refPointerPrefix: '#/components/schemas/' }) as unknown as typeof named;
  const schemas = Object.fromEntries(Object.entries(named).map(([name, schema]) => [name, derived[name] ?? schema]));
  return { ...document, components: { ...document.components, schemas } };
}

/**
 * Builds one service the same way in both run modes: database migrated, HTTP conventions installed, event
 * handlers attached to the configured transport. The relay is created but not started: the caller starts it
 * once every consumer is listening, so no event is relayed before its handlers exist.
 */
export async function createServiceApp(definition: ServiceDefinition, runtime: ServiceRuntime): Promise<ServiceApp> {
  const logger = runtime.logger.child({ module: definition.name });
  const dataSource = createServiceDataSource({
    url: runtime.databaseUrl,
    schema: definition.name,
    entities: definition.entities,
    migrations: definition.migrations,
    poolSize: runtime.poolSize,
  });
  await dataSource.initialize();
  await migrate(dataSource);

  @Module({
    imports: [
      PlatformModule.forService({
        service: definition.name,
        dataSource,
        tokenVerifier: runtime.tokenVerifier,
        revocations: runtime.revocations,
        objectStorage: runtime.objectStorage,
        logger,
        redis: runtime.redis,
        secrets: runtime.secrets ?? {},
      }),
      definition.module,
    ],
  })
  class ServiceRootModule {}

  const app = await NestFactory.create<NestExpressApplication>(ServiceRootModule, { logger: new NestPinoLogger(logger), bodyParser: false, abortOnError: false });
  app.disable('x-powered-by');
  app.use(requestContextMiddleware);
  app.use(httpMetricsMiddleware(definition.name));
  app.useBodyParser('json', { limit: JSON_BODY_LIMIT });
  app.useBodyParser('urlencoded', { limit: JSON_BODY_LIMIT, extended: true });
  app.use(bodyErrorMiddleware);
  app.use(inputGuardMiddleware);

  const openApi = withDtoSchemas(
    SwaggerModule.createDocument(app, new DocumentBuilder().setTitle(`shiliu-${definition.name}`).setVersion('1.2.0').addBearerAuth().build()),
  );
  app.use('/openapi.json', (_req: unknown, res: { json(body: unknown): void }) => res.json(openApi));

  const eventServer: EventServer =
    runtime.events.kind === 'kafka'
      ? new KafkaEventServer(runtime.events.kafka, definition.name, dataSource, logger, runtime.events.sessionTimeoutMs)
      : new InProcessEventServer(runtime.events.bus, definition.name, dataSource, logger);
  app.connectMicroservice({ strategy: eventServer }, { inheritAppConfig: true });

  const publisher: EventPublisher =
    runtime.events.kind === 'kafka' ? new KafkaEventPublisher(runtime.events.kafka) : new InProcessEventPublisher(runtime.events.bus);
  const relay = new OutboxRelay(dataSource, publisher, logger, runtime.databaseUrl);

  await app.init();
  await app.startAllMicroservices();

  return {
    definition,
    app,
    dataSource,
    relay,
    openApi,
    // HTTP and event intake stop first, so the final outbox drain sees every event the last requests wrote.
    async close() {
      await app.close();
      await relay.stop();
      await publisher.close();
      if (dataSource.isInitialized) await dataSource.destroy();
    },
  };
}
