import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { type BeforeApplicationShutdown, Module } from '@nestjs/common';
import { HttpAdapterHost, NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import {
  AnswerTracker,
  answerClientErrors,
  EnvelopeExceptionFilter,
  EnvelopeInterceptor,
  httpMetricsMiddleware,
  leanAsyncResourceBind,
  NestPinoLogger,
  type RevocationList,
} from '@shiliu/platform/core';
import helmet from 'helmet';
import type { Logger } from 'pino';
import { z } from 'zod';
import { GATEWAY_OPTIONS, GatewayController, GatewayProbeController, type GatewayRouteOptions } from './gateway.controller';
import { compressAnswer } from './compression';
import { allowedMethodsOf, gatewayMiddleware, protocolOf, type TrustProxy } from './gateway.middleware';
import type { RateLimiter } from './rate-limit';
import type { RouteLimitTable } from './route-limits';
import { RouteMatcher } from './route-matcher';
import { routeTable } from './route-table';
import type { Upstream } from './upstream';
import { webAppMiddleware } from './web-app';

/** CORS_ORIGINS, in both modes: comma-separated browser origins besides the gateway's own; none by default. */
export const corsOriginsSetting = () =>
  z
    .string()
    .default('')
    .transform((value) => value.split(',').map((origin) => origin.trim()).filter(Boolean));

export interface GatewayOptions extends GatewayRouteOptions {
  upstream: Upstream;
  rateLimiter: RateLimiter;
  /** The process's list of revoked sessions (the same one its services use when embedded). */
  revocations: RevocationList;
  logger: Logger;
  webDir: string;
  /** Browser origins other than the gateway's own that may call the API with credentials; none by default. */
  corsOrigins: string[];
  /** Express `trust proxy`: whose X-Forwarded-For to believe for the client address. */
  trustProxy: string;
  /** Timeouts and body limits per kind of call; the spec's values unless a test needs shorter ones. */
  routeLimits?: RouteLimitTable;
}

/**
 * The security headers for the pages and the API; scripts only from our own origin, so injected markup cannot run.
 * A page reached over https also has its subresources upgraded to https and tells the browser to come back over https
 * only (HSTS); one reached over plain http has neither, or its scripts and styles would be asked for over an https
 * that a campus server or a LAN host may not have, and the page would stay white.
 */
function securityHeaders(https: boolean) {
  return helmet({
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
        // helmet's default adds it; null leaves it out.
        upgradeInsecureRequests: https ? [] : null,
      },
    },
    strictTransportSecurity: https,
    crossOriginEmbedderPolicy: false,
  });
}

/**
 * Files a browser only loads into a page (scripts, styles, pictures, video, fonts), by their path's extension. The
 * page's policy is what governs them, and opened on their own they are shown as text or media, never run: they carry
 * only the headers that still mean something for them, about 700 bytes less on each of a page's many subresources.
 * SVG is not among them, since an SVG opened on its own is a document that can run script.
 */
const SUBRESOURCE = /\.(?:m?js|css|webp|avif|jpe?g|png|gif|mp4|webm|mov|woff2?)$/i;
const SUBRESOURCE_HEADERS = new Set(['x-content-type-options', 'cross-origin-resource-policy', 'strict-transport-security']);

function isSubresource(url: string | undefined): boolean {
  const path = (url ?? '').split('?', 1)[0];
  return SUBRESOURCE.test(path);
}

/** The headers helmet sets: the same for every answer over one protocol, so they are worked out once for each. */
function headersOf(middleware: ReturnType<typeof helmet>): [string, string][] {
  const headers: [string, string][] = [];
  const recorder = { setHeader: (name: string, value: string) => headers.push([name, value]), removeHeader: () => undefined };
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, () => undefined);
  return headers;
}

/**
 * The gateway: CORS, then the route table (rate limit, body limit, timeout, hand-off), then its own calls
 * (health, OpenAPI), then the web app. Metrics are on the management port (startMetricsServer). Bodies are never parsed here: they stream to the services.
 *
 * Its first middleware sets the security headers (those for https or for plain http, as the call came), arms the
 * compression of the answer (compressAnswer: br or gzip over 1 KB, never an event stream or media) and hands the API
 * calls the route table knows to their service;
 * a call whose origin may need CORS headers goes through CORS first, and everything the table does not know goes on
 * to the gateway's own routes and the web app.
 */
export async function createGatewayApp(options: GatewayOptions): Promise<NestExpressApplication> {
  const answers = new AnswerTracker();
  // Before `close()` stops the server, which would otherwise wait on every open event stream (a logged-in browser holds one).
  class DrainAnswers implements BeforeApplicationShutdown {
    beforeApplicationShutdown(): Promise<void> {
      return answers.drain();
    }
  }

  @Module({
    controllers: [GatewayController, GatewayProbeController],
    providers: [{ provide: GATEWAY_OPTIONS, useValue: options }, DrainAnswers],
  })
  class GatewayModule {}

  leanAsyncResourceBind();
  const app = await NestFactory.create<NestExpressApplication>(GatewayModule, { logger: new NestPinoLogger(options.logger), bodyParser: false, abortOnError: false });
  app.set('trust proxy', options.trustProxy);
  app.disable('x-powered-by');
  const expressApp = app.getHttpAdapter().getInstance() as { get(setting: string): unknown };
  const matcher = new RouteMatcher(routeTable);
  const trust = expressApp.get('trust proxy fn') as TrustProxy;
  const api = gatewayMiddleware(
    matcher,
    options.upstream,
    options.rateLimiter,
    options.logger,
    options.revocations,
    trust,
    options.routeLimits,
  );
  const httpsHeaders = headersOf(securityHeaders(true));
  const httpHeaders = headersOf(securityHeaders(false));
  const forSubresource = (headers: [string, string][]) => headers.filter(([name]) => SUBRESOURCE_HEADERS.has(name.toLowerCase()));
  const httpsSubresourceHeaders = forSubresource(httpsHeaders);
  const httpSubresourceHeaders = forSubresource(httpHeaders);
  const crossOrigin = options.corsOrigins.length > 0;
  app.use((req: IncomingMessage, res: ServerResponse, next: () => void) =>
    answers.middleware(req, res, () => {
      const https = protocolOf(req, trust) === 'https';
      const headers = isSubresource(req.url) ? (https ? httpsSubresourceHeaders : httpSubresourceHeaders) : https ? httpsHeaders : httpHeaders;
      for (const [name, value] of headers) res.setHeader(name, value);
      // Before anything writes: every answer below (the services', the proxied ones, the web app's) may be compressed.
      compressAnswer(req, res);
      if (crossOrigin && req.headers.origin !== undefined) next();
      else api(req, res, next);
    }),
  );
  // The web app is served from this origin; only the configured others may call with credentials.
  app.enableCors({ origin: crossOrigin ? options.corsOrigins : false, credentials: true, maxAge: 600 });
  // A call from another origin reaches the route table after CORS has answered its preflight or set its headers.
  if (crossOrigin) app.use(api);
  app.use(httpMetricsMiddleware('gateway'));
  app.use(...webAppMiddleware(options.webDir));
  app.useGlobalInterceptors(new EnvelopeInterceptor());
  app.useGlobalFilters(new EnvelopeExceptionFilter(app.get(HttpAdapterHost), options.logger));
  await app.init();

  answerClientErrors(app.getHttpServer() as Server, allowedMethodsOf(matcher));
  return app;
}
