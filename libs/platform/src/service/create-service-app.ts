import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
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
import { installBodyParsing } from '../http/body-parsing';
import { installHttpCaching } from '../http/http-caching';
import { inputGuardHook } from '../http/input-guard';
import { ServiceHttpAdapter, type TrustProxy } from '../http/service-http-adapter';
import { installRequestContext } from '../http/request-context.hooks';
import { NestPinoLogger } from '../logging/nest-logger';
import { installHttpMetrics } from '../metrics/metrics';
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
  /**
   * Whose X-Forwarded-For and X-Forwarded-Proto to believe, as Fastify's `trustProxy` takes it: addresses and
   * subnets (`loopback, uniquelocal`, the default), or a function of the address and its hop.
   */
  trustProxy?: TrustProxy;
}

/** A service module running as a Nest application: its HTTP handlers, its event server and its outbox relay. */
export interface ServiceApp {
  definition: ServiceDefinition;
  app: NestFastifyApplication;
  /** Its HTTP calls: the listener of its server, and what embedded mode's gateway calls. */
  handler: RequestHandler;
  dataSource: DataSource;
  relay: OutboxRelay;
  openApi: OpenAPIObject;
  close(): Promise<void>;
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
  const adapter = new ServiceHttpAdapter(definition.name, logger, runtime.trustProxy ?? 'loopback, uniquelocal');
  const app = await NestFactory.create<NestFastifyApplication>(ServiceRootModule, adapter, { logger: new NestPinoLogger(logger), bodyParser: false, abortOnError: false });
  const fastify = app.getHttpAdapter().getInstance();
  const answers = new AnswerTracker();
  fastify.addHook('onRequest', (request, reply, done) => answers.middleware(request.raw, reply.raw, done));
  installRequestContext(fastify);
  installHttpMetrics(fastify, definition.name);
  installBodyParsing(fastify);
  fastify.addHook('preValidation', inputGuardHook);
  installHttpCaching(fastify);

  const openApi = serviceOpenApi(app, definition);
  fastify.get('/openapi.json', (_request, reply) => reply.send(openApi));

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
  await fastify.ready();
  await app.startAllMicroservices();

  const handler: RequestHandler = (req, res) => fastify.routing(req, res);

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
