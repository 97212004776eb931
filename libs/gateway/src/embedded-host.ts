import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import {
  commonSettings,
  ConfigError,
  createLogger,
  createServiceApp,
  InProcessEventBus,
  loadConfig,
  loadOrCreateDataKey,
  loadOrCreateTokenKeyPair,
  LocalDirectoryStorage,
  logUnhandledRejections,
  MemoryRevocationList,
  port,
  runSeeds,
  startMetricsServer,
  type ServiceApp,
  type ServiceDefinition,
  TokenVerifier,
} from '@shiliu/platform';
import { apiDocument } from '@shiliu/contracts';
import { z } from 'zod';
import { corsOriginsSetting, createGatewayApp } from './create-gateway-app';
import { InProcessUpstream, type RequestHandler } from './in-process.upstream';
import { RateLimiter } from './rate-limit';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './embedded-postgres';

const embeddedSettings = {
  ...commonSettings,
  PORT: port(8080),
  /** Prometheus metrics of the whole process, on a management port of their own. */
  METRICS_PORT: port(9100),
  CORS_ORIGINS: corsOriginsSetting(),
  DATA_DIR: z.string().default('./.data'),
  DATABASE_URL: z.string().url().optional(),
  /** The embedded PostgreSQL's port; a free one when unset. */
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  WEB_DIST_DIR: z.string().default('apps/web/dist'),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(1200),
  /** Whose X-Forwarded-For to believe for the client address (IP属地, rate limits): a reverse proxy in front, if any. */
  TRUST_PROXY: z.string().default('loopback'),
  /** Load each service's demo data on first start (`DEMO_DATA=false` for an empty product). */
  DEMO_DATA: z.enum(['true', 'false']).default('true').transform((value) => value === 'true'),
  /** How many demo notes content draws (fewer start sooner: the browser tests take 60). */
  DEMO_NOTES: z.coerce.number().int().positive().default(300),
};

/**
 * The embedded default: one process hosting the gateway and every service module, on embedded PostgreSQL
 * (unless DATABASE_URL is given), with events carried in process from each service's outbox and files kept
 * in the data directory. Ctrl-C stops intake, drains every outbox and closes the database cleanly.
 */
export async function runEmbedded(services: ServiceDefinition[]): Promise<void> {
  const logger = createLogger('shiliu');
  logUnhandledRejections(logger);
  let database: EmbeddedDatabase | null = null;
  const started: ServiceApp[] = [];
  try {
    const settings = loadConfig(embeddedSettings);
    const dataDir = resolve(settings.DATA_DIR);
    await mkdir(dataDir, { recursive: true });
    database = settings.DATABASE_URL ? null : await startEmbeddedPostgres(join(dataDir, 'postgres'), settings.EMBEDDED_PG_PORT, logger);
    const databaseUrl = settings.DATABASE_URL ?? database!.url;

    const keys = await loadOrCreateTokenKeyPair(join(dataDir, 'keys'));
    const bus = new InProcessEventBus();
    const revocations = new MemoryRevocationList();
    const runtime = {
      databaseUrl,
      tokenVerifier: await TokenVerifier.fromPem(keys.publicKeyPem),
      revocations,
      objectStorage: new LocalDirectoryStorage(join(dataDir, 'files')),
      events: { kind: 'in-process' as const, bus },
      logger,
      redis: null,
      secrets: { tokenPrivateKeyPem: keys.privateKeyPem, dataEncryptionKey: await loadOrCreateDataKey(join(dataDir, 'keys')) },
      poolSize: 5,
      trustProxy: settings.TRUST_PROXY,
    };
    for (const definition of services) {
      const service = await createServiceApp(definition, runtime);
      started.push(service);
    }
    for (const service of started) await service.relay.start();
    if (settings.DEMO_DATA) await runSeeds(started, { notes: settings.DEMO_NOTES }, (message) => logger.info(message));

    const handlers: Partial<Record<ServiceDefinition['name'], RequestHandler>> = {};
    for (const service of started) handlers[service.definition.name] = service.handler;
    const gateway = await createGatewayApp({
      mode: 'embedded',
      upstream: new InProcessUpstream(handlers),
      revocations,
      rateLimiter: new RateLimiter({ points: settings.RATE_LIMIT_PER_MINUTE, windowSeconds: 60 }),
      logger,
      webDir: resolve(settings.WEB_DIST_DIR),
      corsOrigins: settings.CORS_ORIGINS,
      trustProxy: settings.TRUST_PROXY,
      probe: async () => {
        const entries = await Promise.all(
          started.map(async (service) => {
            const up = await service.dataSource.query('SELECT 1').then(() => true, () => false);
            return [service.definition.name, up ? 'up' : 'down'] as const;
          }),
        );
        return Object.fromEntries(entries);
      },
      openApi: async () => apiDocument(),
    });
    await gateway.listen(settings.PORT);
    // On the machine it runs on only: npm start is a single process on someone's computer.
    const metrics = await startMetricsServer(settings.METRICS_PORT, '127.0.0.1');
    logger.info({ port: settings.PORT, metricsPort: metrics.port, dataDir }, `Shiliu is running at http://localhost:${settings.PORT}/`);

    let stopping = false;
    const stop = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      logger.info({ signal }, 'shutting down: closing intake, draining outboxes');
      await gateway.close();
      await metrics.close();
      for (const service of started) await service.relay.stop();
      for (const service of started) await service.close();
      await database?.stop();
      logger.info('stopped cleanly');
      process.exit(0);
    };
    process.once('SIGINT', () => void stop('SIGINT'));
    process.once('SIGTERM', () => void stop('SIGTERM'));
  } catch (error) {
    logger.fatal({ err: error }, error instanceof ConfigError ? error.message : 'Shiliu failed to start');
    for (const service of started) await service.close().catch(() => undefined);
    await database?.stop().catch(() => undefined);
    process.exit(1);
  }
}
