import type { NextFunction, Request, Response } from 'express';
import { carriesRevokedSession, contextForRequest, gatewayUpstreamErrors, REQUEST_ID_HEADER, type RevocationList, runInContext } from '@shiliu/platform';
import type { Logger } from 'pino';
import { limitsOf, routeLimits, type RouteLimitTable } from './route-limits';
import type { RouteMatcher } from './route-matcher';
import type { RateLimiter } from './rate-limit';
import { failCall, type Upstream } from './upstream';

/** A call slower than this is logged at the default level. */
const SLOW_CALL_MS = 1_000;

/**
 * Every /api call the route table knows: rate limit, revoked session, body size, timeout, then hand-off to the owning
 * service. Calls the table does not know fall through to the gateway's own routes and, failing those,
 * to the 404 envelope.
 */
export function gatewayMiddleware(
  matcher: RouteMatcher,
  upstream: Upstream,
  limiter: RateLimiter,
  logger: Logger,
  revocations: RevocationList,
  limitTable: RouteLimitTable = routeLimits,
) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const path = req.path;
    const entry = path.startsWith('/api/') ? matcher.match(req.method, path) : null;
    if (!entry) {
      next();
      return;
    }
    const context = contextForRequest(req.headers[REQUEST_ID_HEADER]);
    req.headers[REQUEST_ID_HEADER] = context.requestId;
    res.setHeader(REQUEST_ID_HEADER, context.requestId);
    const started = process.hrtime.bigint();
    // One access line per call, with the request id that the services' and the events' log lines also carry. At the
    // default level only failed and slow calls write theirs (the metrics count every call): a line per call would
    // add a serialisation and a write to stdout to every hot read (LOG_LEVEL=debug brings them all back).
    res.on('close', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const level = res.statusCode >= 500 || ms >= SLOW_CALL_MS ? 'info' : 'debug';
      if (!logger.isLevelEnabled(level)) return;
      logger[level]({ requestId: context.requestId, method: req.method, path, target: entry.service, status: res.statusCode, ms: Math.round(ms) }, 'request');
    });
    runInContext(context, () => {
      try {
        const waitSeconds = limiter.consume(req.ip ?? 'unknown');
        if (waitSeconds > 0) {
          res.setHeader('Retry-After', String(waitSeconds));
          failCall(res, 429);
          return;
        }
        if (carriesRevokedSession(req.headers.authorization, revocations)) {
          failCall(res, 401);
          return;
        }
        const limits = limitsOf(entry, limitTable);
        const declared = Number(req.headers['content-length'] ?? 0);
        if (declared > limits.maxBodyBytes) {
          res.setHeader('Connection', 'close');
          failCall(res, 413);
          return;
        }
        // The one timeout for both modes: the whole call, from hand-off to the end of the answer (a stream has none).
        if (limits.timeoutMs > 0) {
          const timer = setTimeout(() => {
            if (!res.writableEnded) gatewayUpstreamErrors.inc({ service: entry.service, kind: 'timeout' });
            failCall(res, 504);
          }, limits.timeoutMs);
          res.on('close', () => clearTimeout(timer));
        }
        upstream.forward(req, res, entry, limits);
      } catch (error) {
        logger.error({ err: error }, 'gateway failed to route a call');
        failCall(res, 502);
      }
    });
  };
}
