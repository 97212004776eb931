import { Agent as HttpAgent, type IncomingHttpHeaders, type IncomingMessage, request as httpRequest, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { Transform } from 'node:stream';
import { gatewayUpstreamErrors, type ServiceName } from '@shiliu/platform';
import { type Caller, failCall, type Upstream } from './upstream';
import type { RouteEntry } from './route-table';
import type { RouteLimits } from './route-limits';

/**
 * Connections to the services are kept alive, and given up after 4 s idle, long before a service closes an idle one
 * (65 s, runServiceProcess): a call sent on a connection the service is closing at that moment would be a 502.
 */
const IDLE_CONNECTION_MS = 4_000;

/**
 * Connections to one service for calls (`UPSTREAM_CONNECTIONS`): well above what a service answers at once (its
 * database pool is 10), far below the listen backlog (511) whose overflow was answered with resets.
 */
export const UPSTREAM_CONNECTIONS = 64;

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host']);

function forwardableHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name.toLowerCase())));
}

/**
 * Streams the request to the service and the answer back, never holding a body in memory, so a 100 MB video
 * passes through in small chunks. A body larger than the route allows is cut off with 413 and a refused or
 * broken connection is a 502; the gateway's timer answers 504, and the hop is dropped whenever the caller's
 * answer closes before the service's has ended.
 */
export class HttpProxyUpstream implements Upstream {
  /**
   * Calls share a bounded pool per service: when a service lags, further calls wait their turn here (still under
   * the gateway's timer) instead of each opening a connection, which overflowed the service's listen backlog and
   * was answered with resets (502) at 200 requests per second.
   */
  private readonly calls: { http: HttpAgent; https: HttpsAgent };
  /** Event streams stay open as long as their clients do: they would hold the calls' pool, so they have their own. */
  private readonly streams = { http: new HttpAgent({ keepAlive: false }), https: new HttpsAgent({ keepAlive: false }) };

  constructor(
    private readonly baseUrls: Record<ServiceName, string>,
    connectionsPerService = UPSTREAM_CONNECTIONS,
  ) {
    const pool = { keepAlive: true, timeout: IDLE_CONNECTION_MS, maxSockets: connectionsPerService, scheduling: 'lifo' as const };
    this.calls = { http: new HttpAgent(pool), https: new HttpsAgent(pool) };
  }

  forward(req: IncomingMessage, res: ServerResponse, entry: RouteEntry, limits: RouteLimits, caller: Caller): void {
    const target = new URL(req.url ?? '/', this.baseUrls[entry.service]);
    const headers = forwardableHeaders(req.headers);
    headers['x-forwarded-for'] = caller.address;
    headers['x-forwarded-proto'] = caller.protocol;
    headers['x-forwarded-host'] = req.headers.host ?? '';
    if (req.headers['transfer-encoding']) headers['transfer-encoding'] = req.headers['transfer-encoding'];

    const secure = target.protocol === 'https:';
    const send = secure ? httpsRequest : httpRequest;
    let answered = false;
    const agents = entry.kind === 'stream' ? this.streams : this.calls;
    const upstream = send(target, { method: req.method, headers, agent: secure ? agents.https : agents.http }, (answer) => {
      res.statusCode = answer.statusCode ?? 502;
      for (const [name, value] of Object.entries(forwardableHeaders(answer.headers))) {
        if (value !== undefined) res.setHeader(name, value);
      }
      answer.on('end', () => (answered = true));
      answer.on('error', () => res.destroy());
      answer.pipe(res);
    });
    upstream.on('error', () => {
      if (!answered && !res.writableEnded) gatewayUpstreamErrors.inc({ service: entry.service, kind: 'unreachable' });
      failCall(res, 502);
    });
    res.on('close', () => {
      if (!answered) upstream.destroy();
    });

    let received = 0;
    const counter = new Transform({
      transform: (chunk: Buffer, _encoding, callback) => {
        received += chunk.length;
        if (received > limits.maxBodyBytes) {
          upstream.destroy();
          failCall(res, 413);
          callback();
          return;
        }
        callback(null, chunk);
      },
    });
    req.pipe(counter).pipe(upstream);
  }
}
