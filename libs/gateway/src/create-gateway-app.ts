import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { EnvelopeExceptionFilter, EnvelopeInterceptor, httpMetricsMiddleware, MetricsController, NestPinoLogger, type RevocationList } from '@shiliu/platform';
import helmet from 'helmet';
import type { Logger } from 'pino';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { GATEWAY_OPTIONS, GatewayController, GatewayProbeController, type GatewayRouteOptions } from './gateway.controller';
import { gatewayMiddleware } from './gateway.middleware';
import type { RouteLimitTable } from './route-limits';
import { RouteMatcher } from './route-matcher';
import { routeTable } from './route-table';
import type { Upstream } from './upstream';
import { webAppMiddleware } from './web-app';

export interface GatewayOptions extends GatewayRouteOptions {
  upstream: Upstream;
  rateLimiter: RateLimiterAbstract;
  /** The process's list of revoked sessions (the same one its services use when embedded). */
  revocations: RevocationList;
  logger: Logger;
  webDir: string;
  corsOrigins: string[] | true;
  /** Express `trust proxy`: whose X-Forwarded-For to believe for the client address. */
  trustProxy: string;
  /** Timeouts and body limits per kind of call; the spec's values unless a test needs shorter ones. */
  routeLimits?: RouteLimitTable;
}

/**
 * The gateway: CORS, then the route table (rate limit, body limit, timeout, hand-off), then its own calls
 * (health, OpenAPI, metrics), then the web app. Bodies are never parsed here: they stream to the services.
 */
export async function createGatewayApp(options: GatewayOptions): Promise<NestExpressApplication> {
  @Module({
    controllers: [GatewayController, GatewayProbeController, MetricsController],
    providers: [{ provide: GATEWAY_OPTIONS, useValue: options }],
  })
  class GatewayModule {}

  const app = await NestFactory.create<NestExpressApplication>(GatewayModule, { logger: new NestPinoLogger(options.logger), bodyParser: false, abortOnError: false });
  app.set('trust proxy', options.trustProxy);
  // Security headers for the pages and the API; scripts only from our own origin, so injected markup cannot run.
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:'],
          mediaSrc: ["'self'", 'blob:'],
          connectSrc: ["'self'"],
          objectSrc: ["'none'"],
          frameAncestors: ["'none'"],
        },
      },
      crossOriginEmbedderPolicy: false,
    }),
  );
  app.enableCors({ origin: options.corsOrigins, credentials: true, maxAge: 600 });
  app.use(httpMetricsMiddleware('gateway'));
  app.use(gatewayMiddleware(new RouteMatcher(routeTable), options.upstream, options.rateLimiter, options.logger, options.revocations, options.routeLimits));
  app.use(...webAppMiddleware(options.webDir));
  app.useGlobalInterceptors(new EnvelopeInterceptor());
  app.useGlobalFilters(new EnvelopeExceptionFilter(options.logger));
  await app.init();
  return app;
}
