import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { topics } from '@shiliu/contracts';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { z } from 'zod';
import { RedisRevocationList } from '../auth/revocation-list';
import { TokenVerifier } from '../auth/token-verifier';
import { commonSettings, ConfigError, csv, loadConfig, port, url } from '../config/config';
import { createServiceDataSource, migrate } from '../database/data-source';
import { createKafka, ensureTopics } from '../events/kafka';
import { createLogger } from '../logging/logger';
import { startMetricsServer } from '../metrics/metrics-server';
import { MinioStorage } from '../storage/minio.storage';
import { createServiceApp } from './create-service-app';
import type { ServiceDefinition, ServiceName } from './service-definition';

/** How long a service keeps an idle keep-alive connection open (well beyond the gateway's 4 s). */
const KEEP_ALIVE_MS = 65_000;

export const defaultServicePorts: Record<ServiceName, number> = {
  auth: 3101,
  content: 3102,
  social: 3103,
  notify: 3104,
  search: 3105,
  media: 3106,
};

const distributedSettings = (service: ServiceName) => ({
  ...commonSettings,
  PORT: port(defaultServicePorts[service]),
  /** Prometheus metrics, on a management port of their own. */
  METRICS_PORT: port(defaultServicePorts[service] + 6000),
  DATABASE_URL: url(),
  KAFKA_BROKERS: csv(),
  /** How long Kafka waits for a silent consumer before giving its partitions to another. */
  KAFKA_SESSION_TIMEOUT_MS: z.coerce.number().int().min(6000).default(30_000),
  /** Put before every topic name, so that separate installations (or test runs) can share one Kafka cluster. */
  KAFKA_TOPIC_PREFIX: z.string().regex(/^[A-Za-z0-9._-]*$/).default(''),
  AUTH_PUBLIC_KEY: z.string().optional(),
  AUTH_PUBLIC_KEY_FILE: z.string().optional(),
  S3_ENDPOINT: url(),
  S3_ACCESS_KEY: z.string().min(1),
  S3_SECRET_KEY: z.string().min(1),
  S3_BUCKET: z.string().min(3).default('shiliu'),
  REDIS_URL: url(),
  TRUST_PROXY: z.string().default('loopback, uniquelocal'),
  AUTH_PRIVATE_KEY: z.string().optional(),
  AUTH_PRIVATE_KEY_FILE: z.string().optional(),
  DATA_ENCRYPTION_KEY: z.string().optional(),
});

/** A PEM given inline (with literal \n in env files) or as a mounted file. */
function pem(inline: string | undefined, file: string | undefined): string | undefined {
  if (inline) return inline.replace(/\\n/g, '\n');
  if (file) return readFileSync(file, 'utf8');
  return undefined;
}

function publicKeyOf(settings: { AUTH_PUBLIC_KEY?: string; AUTH_PUBLIC_KEY_FILE?: string }): string {
  const key = pem(settings.AUTH_PUBLIC_KEY, settings.AUTH_PUBLIC_KEY_FILE);
  if (!key) throw new ConfigError(['AUTH_PUBLIC_KEY or AUTH_PUBLIC_KEY_FILE: one of them is required']);
  return key;
}

/**
 * Release tasks, run by Kubernetes Jobs with the service's own image before the services roll (k8s/base/jobs.yaml):
 * `--migrate` runs the service's pending migrations and exits; `--create-topics` creates every topic of the
 * contracts and its `.dlq` twin that is missing, and exits. Each needs only the settings it uses.
 */
export type ServiceTask = 'migrate' | 'create-topics';

export function serviceTaskOf(args: readonly string[]): ServiceTask | undefined {
  if (args.includes('--migrate')) return 'migrate';
  if (args.includes('--create-topics')) return 'create-topics';
  return undefined;
}

async function runServiceTask(definition: ServiceDefinition, task: ServiceTask, logger: Logger): Promise<void> {
  switch (task) {
    case 'migrate': {
      const settings = loadConfig({ ...commonSettings, DATABASE_URL: url() });
      const dataSource = createServiceDataSource({
        url: settings.DATABASE_URL,
        schema: definition.name,
        entities: definition.entities,
        migrations: definition.migrations,
        // migrate() holds one connection for its lock while the migrations run on another.
        poolSize: 2,
      });
      await dataSource.initialize();
      try {
        await migrate(dataSource);
      } finally {
        await dataSource.destroy();
      }
      logger.info({ schema: definition.name }, 'migrations done');
      return;
    }
    case 'create-topics': {
      const settings = loadConfig({ ...commonSettings, KAFKA_BROKERS: csv(), KAFKA_TOPIC_PREFIX: distributedSettings(definition.name).KAFKA_TOPIC_PREFIX });
      const admin = createKafka(settings.KAFKA_BROKERS, `shiliu-${definition.name}-topics`, logger).admin();
      await admin.connect();
      try {
        await ensureTopics(admin, topics.map((topic) => settings.KAFKA_TOPIC_PREFIX + topic));
      } finally {
        await admin.disconnect();
      }
      logger.info({ topics: topics.length * 2 }, 'topics present');
      return;
    }
  }
}

/**
 * One service as its own process (distributed mode): PostgreSQL, Kafka and MinIO from the environment.
 * SIGTERM and SIGINT stop taking requests, drain the outbox and close connections before exiting.
 */
export async function runServiceProcess(definition: ServiceDefinition): Promise<void> {
  const logger = createLogger(definition.name);
  const task = serviceTaskOf(process.argv.slice(2));
  if (task) {
    try {
      await runServiceTask(definition, task, logger);
      process.exit(0);
    } catch (error) {
      logger.fatal({ err: error, task }, error instanceof ConfigError ? error.message : `${task} failed`);
      process.exit(1);
    }
  }
  try {
    const settings = loadConfig(distributedSettings(definition.name));
    // ioredis reconnects by itself, at start-up as later; readiness reports it down meanwhile.
    const redis = new Redis(settings.REDIS_URL, { maxRetriesPerRequest: 2 });
    const revocations = new RedisRevocationList(redis, logger);
    await revocations.whenReady();
    const service = await createServiceApp(definition, {
      databaseUrl: settings.DATABASE_URL,
      tokenVerifier: await TokenVerifier.fromPem(publicKeyOf(settings)),
      revocations,
      objectStorage: new MinioStorage({
        endpoint: settings.S3_ENDPOINT,
        accessKey: settings.S3_ACCESS_KEY,
        secretKey: settings.S3_SECRET_KEY,
        bucket: settings.S3_BUCKET,
      }),
      events: {
        kind: 'kafka',
        kafka: createKafka(settings.KAFKA_BROKERS, `shiliu-${definition.name}`, logger),
        sessionTimeoutMs: settings.KAFKA_SESSION_TIMEOUT_MS,
        topicPrefix: settings.KAFKA_TOPIC_PREFIX,
      },
      logger,
      redis,
      trustProxy: settings.TRUST_PROXY,
      secrets: {
        tokenPrivateKeyPem: pem(settings.AUTH_PRIVATE_KEY, settings.AUTH_PRIVATE_KEY_FILE),
        dataEncryptionKey: settings.DATA_ENCRYPTION_KEY,
      },
    });
    await service.relay.start();
    await service.app.listen(settings.PORT, '0.0.0.0');
    // The gateway gives an idle connection up after 4 s (HttpProxyUpstream); a service keeps it much longer, so that
    // even a stalled process never closes a connection just as the gateway sends a call on it (the call would be a 502).
    const server = service.app.getHttpServer() as Server;
    server.keepAliveTimeout = KEEP_ALIVE_MS;
    server.headersTimeout = KEEP_ALIVE_MS + 1000;
    const metrics = await startMetricsServer(settings.METRICS_PORT);
    logger.info({ port: settings.PORT, metricsPort: metrics.port }, `${definition.name} service listening`);
    const stop = async (signal: string) => {
      logger.info({ signal }, 'shutting down');
      await metrics.close();
      await service.close();
      await revocations.close();
      redis.disconnect();
      process.exit(0);
    };
    process.once('SIGTERM', () => void stop('SIGTERM'));
    process.once('SIGINT', () => void stop('SIGINT'));
  } catch (error) {
    logger.fatal({ err: error }, error instanceof ConfigError ? error.message : 'service failed to start');
    process.exit(1);
  }
}
