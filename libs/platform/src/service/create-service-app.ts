import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { Redis } from 'ioredis';
import type { Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import type { RevocationList } from '../auth/revocation-list';
import type { TokenVerifier } from '../auth/token-verifier';
import { createServiceDataSource, migrate } from '../database/data-source';
import { requestBackfillForEmptyReadModels } from '../events/backfill';
import type { EventPublisher } from '../events/event-publisher';
import type { EventServer } from '../events/event-server';
import { InProcessEventPublisher, InProcessEventServer, type InProcessEventBus } from '../events/in-process';
import { KafkaEventPublisher } from '../events/kafka';
import { KafkaEventServer } from '../events/kafka-event.server';
import { OutboxRelay } from '../events/outbox-relay';
import { AnswerTracker } from '../http/answer-tracker';
import { answerClientErrors } from '../http/client-errors';
import { bodyErrorMiddleware, inputGuardMiddleware, JSON_BODY_LIMIT_BYTES } from '../http/input-guard';
import { requestContextMiddleware } from '../http/request-context.middleware';
import { NestPinoLogger } from '../logging/nest-logger';
import { httpMetricsMiddleware } from '../metrics/metrics';
import type { ObjectStorage } from '../storage/object-storage';
import { PlatformModule } from './platform.module';
import type { ServiceDefinition } from './service-definition';
import { leanAsyncResourceBind } from './lean-async-bind';
import { serviceOpenApi } from './service-openapi';
import type { ReadinessCheck, ServiceSecrets } from './tokens';

/** A Node request listener: a service's whole HTTP pipeline, as its server and embedded mode's gateway call it. */
export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

export type EventTransport =
  | {
      kind: 'kafka';
      kafka: Kafka;
      sessionTimeoutMs?: number;
      /** Put before every topic name, so that separate installations (or test runs) can share one Kafka cluster. */
      topicPrefix?: string;
    }
  | { kind: 'in-process'; bus: InProcessEventBus };

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
  /** Its HTTP calls: the listener of its server, and what embedded mode's gateway calls. */
  handler: RequestHandler;
  dataSource: DataSource;
  relay: OutboxRelay;
  openApi: OpenAPIObject;
  close(): Promise<void>;
}

const JSON_BODY_LIMIT = `${JSON_BODY_LIMIT_BYTES}b`;

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
  await requestBackfillForEmptyReadModels(dataSource, definition.name, definition.readModels ?? [], logger);
  const readinessChecks: ReadinessCheck[] = [];
  const redis = runtime.redis;
  if (redis) readinessChecks.push({ name: 'redis', ready: () => redis.status === 'ready' });

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
        readinessChecks,
      }),
      definition.module,
    ],
  })
  class ServiceRootModule {}

  leanAsyncResourceBind();
  const app = await NestFactory.create<NestExpressApplication>(ServiceRootModule, { logger: new NestPinoLogger(logger), bodyParser: false, abortOnError: false });
  app.disable('x-powered-by');
  const answers = new AnswerTracker();
  app.use(answers.middleware);
  app.use(requestContextMiddleware);
  app.use(httpMetricsMiddleware(definition.name));
  app.useBodyParser('json', { limit: JSON_BODY_LIMIT });
  app.useBodyParser('urlencoded', { limit: JSON_BODY_LIMIT, extended: true });
  app.use(bodyErrorMiddleware);
  app.use(inputGuardMiddleware);

  const openApi = serviceOpenApi(app, definition);
  app.use('/openapi.json', (_req: unknown, res: { json(body: unknown): void }) => res.json(openApi));

  const eventServer: EventServer =
    runtime.events.kind === 'kafka'
      ? new KafkaEventServer(runtime.events.kafka, definition.name, dataSource, logger, runtime.events.sessionTimeoutMs, runtime.events.topicPrefix)
      : new InProcessEventServer(runtime.events.bus, definition.name, dataSource, logger);
  app.connectMicroservice({ strategy: eventServer }, { inheritAppConfig: true });

  const publisher: EventPublisher =
    runtime.events.kind === 'kafka' ? new KafkaEventPublisher(runtime.events.kafka, logger, runtime.events.topicPrefix) : new InProcessEventPublisher(runtime.events.bus);
  readinessChecks.push({ name: `${publisher.transport} consumer`, ready: () => eventServer.ready() }, { name: `${publisher.transport} producer`, ready: () => publisher.ready() });
  const relay = new OutboxRelay(dataSource, publisher, logger, runtime.databaseUrl);

  await app.init();
  await app.startAllMicroservices();

  const handler = app.getHttpAdapter().getInstance() as RequestHandler;
  answerClientErrors(app.getHttpServer() as Server);

  return {
    definition,
    app,
    handler,
    dataSource,
    relay,
    openApi,
    // HTTP and event intake stop first, so the final outbox drain sees every event the last requests wrote.
    async close() {
      await answers.drain();
      await app.close();
      await relay.stop();
      await publisher.close();
      if (dataSource.isInitialized) await dataSource.destroy();
    },
  };
}
