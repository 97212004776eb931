import {
  commonSettings,
  ConfigError,
  createLogger,
  loadConfig,
  port,
  RedisRevocationList,
  serviceNames,
  startMetricsServer,
  url,
  type ServiceName,
} from '@shiliu/platform/core';
import { apiDocument } from '@shiliu/contracts';
import { Redis } from 'ioredis';
import { z } from 'zod';
import { corsOriginsSetting, createGatewayApp } from './create-gateway-app';
import { HttpProxyUpstream, UPSTREAM_CONNECTIONS } from './http-proxy.upstream';
import { RateLimiter } from './rate-limit';
import { httpServiceProbe } from './service-probe';

const gatewaySettings = {
  ...commonSettings,
  PORT: port(8080),
  METRICS_PORT: port(9100),
  AUTH_URL: url(),
  CONTENT_URL: url(),
  SOCIAL_URL: url(),
  NOTIFY_URL: url(),
  SEARCH_URL: url(),
  MEDIA_URL: url(),
  REDIS_URL: url(),
  WEB_DIST_DIR: z.string().default('apps/web/dist'),
  CORS_ORIGINS: corsOriginsSetting(),
  TRUST_PROXY: z.string().default('loopback'),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(1200),
  UPSTREAM_CONNECTIONS: z.coerce.number().int().positive().default(UPSTREAM_CONNECTIONS),
};

/** The gateway as its own process (distributed mode): proxies by route table to the services named in the environment. */
export async function runDistributedGateway(): Promise<void> {
  const logger = createLogger('gateway');
  try {
    const settings = loadConfig(gatewaySettings);
    const baseUrls = Object.fromEntries(
      serviceNames.map((name) => [name, settings[`${name.toUpperCase()}_URL` as `${Uppercase<ServiceName>}_URL`]]),
    ) as Record<ServiceName, string>;
    const redis = new Redis(settings.REDIS_URL, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false });
    redis.on('error', (err) => logger.warn({ err }, 'redis unavailable; rate limits counted in memory'));
    const revocations = new RedisRevocationList(redis, logger);
    await revocations.whenReady();
    const rateLimiter = new RateLimiter({ points: settings.RATE_LIMIT_PER_MINUTE, windowSeconds: 60 }, redis, logger);

    const upstream = new HttpProxyUpstream(baseUrls, settings.UPSTREAM_CONNECTIONS);
    const app = await createGatewayApp({
      mode: 'distributed',
      upstream,
      revocations,
      rateLimiter,
      logger,
      webDir: settings.WEB_DIST_DIR,
      corsOrigins: settings.CORS_ORIGINS,
      trustProxy: settings.TRUST_PROXY,
      probe: httpServiceProbe(baseUrls),
      openApi: async () => apiDocument(),
    });
    await app.listen(settings.PORT, '0.0.0.0');
    const metrics = await startMetricsServer(settings.METRICS_PORT);
    logger.info({ port: settings.PORT, metricsPort: metrics.port }, 'gateway listening');
    const stop = async () => {
      await app.close();
      await upstream.close();
      await metrics.close();
      await revocations.close();
      rateLimiter.close();
      await rateLimiter.sync();
      redis.disconnect();
      process.exit(0);
    };
    process.once('SIGTERM', () => void stop());
    process.once('SIGINT', () => void stop());
  } catch (error) {
    logger.fatal({ err: error }, error instanceof ConfigError ? error.message : 'gateway failed to start');
    process.exit(1);
  }
}
