import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import {
  type AllowedMethods,
  carriesRevokedSession,
  contextForRequest,
  gatewayUpstreamErrors,
  methodRefusal,
  REQUEST_ID_HEADER,
  type RevocationList,
  runInContext,
  timeHttpCall,
} from '@shiliu/platform/core';
import type { Logger } from 'pino';
import proxyAddress from 'proxy-addr';
import { limitsOf, routeLimits, type RouteLimitTable } from './route-limits';
import type { RouteMatcher } from './route-matcher';
import type { RateLimiter } from './rate-limit';
import { answerEnvelope, type Caller, failCall, type Upstream } from './upstream';
import { gatewayOwnPaths } from './gateway.controller';

/** Whether to believe the address at `hop` (0: the socket's peer) when it says whom it forwards for: express's compiled `trust proxy`. */
export type TrustProxy = (address: string, hop: number) => boolean;

/** The protocol the caller used, read as express reads `req.protocol`: the socket's, or a trusted proxy's `X-Forwarded-Proto`. */
export function protocolOf(req: IncomingMessage, trust: TrustProxy): string {
  const forwarded = req.headers['x-forwarded-proto'];
  if (typeof forwarded === 'string' && trust(req.socket.remoteAddress ?? '', 0)) return forwarded.split(',')[0].trim();
  return (req.socket as TLSSocket).encrypted ? 'https' : 'http';
}

/** The caller's address and protocol, read as express reads `req.ip` and `req.protocol`. */
export function callerOf(req: IncomingMessage, trust: TrustProxy): Caller {
  return { address: proxyAddress(req, trust), protocol: protocolOf(req, trust) };
}

/** The methods an /api path is served with: the route table's and, for the gateway's own calls, GET. */
export function allowedMethodsOf(matcher: RouteMatcher): AllowedMethods {
  return (path) => (gatewayOwnPaths.includes(path) ? ['GET', 'HEAD'] : path.startsWith('/api/') ? matcher.methodsFor(path) : []);
}

/** How far past its limit a refused body is still read to its end rather than cut off with the connection. */
const DRAINED_BODY_BYTES = 16 * 1024 * 1024;

/** A call slower than this is logged at the default level. */
const SLOW_CALL_MS = 1_000;

/**
 * Every /api call the route table knows: rate limit, revoked session, body size, timeout, then hand-off to the owning
 * service. Calls the table does not know fall through (`next`) to the gateway's own routes and, failing those,
 * to the 404 envelope. It works on Node's own request and answer, so that the gateway's front door can run it
 * without express (createGatewayApp).
 */
export function gatewayMiddleware(
  matcher: RouteMatcher,
  upstream: Upstream,
  limiter: RateLimiter,
  logger: Logger,
  revocations: RevocationList,
  trust: TrustProxy,
  limitTable: RouteLimitTable = routeLimits,
) {
  const allowedMethods = allowedMethodsOf(matcher);
  return (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const path = query < 0 ? url : url.slice(0, query);
    const method = req.method ?? 'GET';
    const entry = path.startsWith('/api/') ? matcher.match(method, path) : null;
    if (!entry) {
      const allowed = allowedMethods(path);
      // A path that exists, asked with a method it is not served with (TRACE, PATCH): 405 naming the methods it is.
      if (allowed.length > 0 && !allowed.includes(method)) {
        const refusal = methodRefusal(allowed);
        for (const [name, value] of Object.entries(refusal.headers)) res.setHeader(name, value);
        answerEnvelope(res, refusal.status);
        return;
      }
      next();
      return;
    }
    const context = contextForRequest(req.headers[REQUEST_ID_HEADER]);
    req.headers[REQUEST_ID_HEADER] = context.requestId;
    res.setHeader(REQUEST_ID_HEADER, context.requestId);
    const started = process.hrtime.bigint();
    const timed = timeHttpCall('gateway', method);
    res.once('finish', () => timed(entry.path, res.statusCode));
    // One access line per call, with the request id that the services' and the events' log lines also carry. At the
    // default level only failed and slow calls write theirs (the metrics count every call): a line per call would
    // add a serialisation and a write to stdout to every hot read (LOG_LEVEL=debug brings them all back).
    let timer: NodeJS.Timeout | undefined;
    res.once('close', () => {
      clearTimeout(timer);
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const level = res.statusCode >= 500 || ms >= SLOW_CALL_MS ? 'info' : 'debug';
      if (!logger.isLevelEnabled(level)) return;
      logger[level]({ requestId: context.requestId, method: req.method, path, target: entry.service, status: res.statusCode, ms: Math.round(ms) }, 'request');
    });
    runInContext(context, () => {
      try {
        const caller = callerOf(req, trust);
        const waitSeconds = limiter.consume(caller.address);
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
          // The client is still sending. Closing now would have the kernel answer the bytes still arriving with a
          // reset, and a reset can discard the 413 before the client reads it; so a body of a size worth reading
          // is read to its end and dropped (Node does that for an answered call on a kept-alive connection).
          if (declared > limits.maxBodyBytes + DRAINED_BODY_BYTES) res.setHeader('Connection', 'close');
          failCall(res, 413);
          return;
        }
        // The one timeout for both modes: the whole call, from hand-off to the end of the answer (a stream has none).
        if (limits.timeoutMs > 0) {
          timer = setTimeout(() => {
            if (!res.writableEnded) gatewayUpstreamErrors.inc({ service: entry.service, kind: 'timeout' });
            failCall(res, 504);
          }, limits.timeoutMs);
        }
        upstream.forward(req, res, entry, limits, caller);
      } catch (error) {
        logger.error({ err: error }, 'gateway failed to route a call');
        failCall(res, 502);
      }
    });
  };
}
