import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { Transform } from 'node:stream';
import { gatewayUpstreamErrors, type ServiceName } from '@shiliu/platform/core';
import { type Dispatcher, Pool } from 'undici';
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

/** Headers of one hop only; `expect` too, which the client already had answered by the gateway's own server. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host', 'expect']);

function forwardableHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const kept: IncomingHttpHeaders = {};
  for (const name in headers) {
    if (!HOP_BY_HOP.has(name)) kept[name] = headers[name];
  }
  return kept;
}

/** The service's answer headers as Node's answer takes them, repeated names (`set-cookie`) kept as lists. */
function answerHeaders(raw: Buffer[]): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (let n = 0; n < raw.length; n += 2) {
    const name = raw[n].toString('latin1').toLowerCase();
    if (HOP_BY_HOP.has(name)) continue;
    // Latin-1 both ways hands the service's bytes on unchanged, whatever their encoding.
    const value = raw[n + 1].toString('latin1');
    const seen = headers[name];
    headers[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return headers;
}

/**
 * Bodies of at most this size with a declared length (a like, a comment, a profile) are read whole and sent with
 * the call's head in one write; longer ones and those of unknown length (uploads) are streamed.
 */
const WHOLE_BODY_BYTES = 64 * 1024;

/** How the call's body travels: none, whole (its declared length), or streamed. */
function bodyOf(req: IncomingMessage): 'none' | 'whole' | 'stream' {
  if (req.headers['transfer-encoding'] !== undefined) return 'stream';
  const declared = Number(req.headers['content-length'] ?? 0);
  if (!(declared > 0)) return 'none';
  return declared <= WHOLE_BODY_BYTES ? 'whole' : 'stream';
}

/**
 * Hands the call to `dispatch` with its body as it travels (bodyOf): none; whole, once all of it has arrived; or
 * streamed, counted against the route's limit.
 */
function sendBody(req: IncomingMessage, res: ServerResponse, maxBodyBytes: number, abort: () => void, dispatch: (body: Buffer | Transform | null) => void): void {
  const travels = bodyOf(req);
  if (travels === 'none') {
    dispatch(null);
    return;
  }
  if (travels === 'whole') {
    // The gateway already refused a declared length over the route's limit, and Node's parser ends the body at that
    // length. A caller gone before its body ended is never dispatched: its answer is closed.
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.once('end', () => {
      if (!res.destroyed && !res.writableEnded) dispatch(Buffer.concat(chunks));
    });
    return;
  }
  let received = 0;
  const counter = new Transform({
    transform: (chunk: Buffer, _encoding, callback) => {
      received += chunk.length;
      if (received > maxBodyBytes) {
        failCall(res, 413);
        abort();
        // The rest is read and dropped, so the caller's connection stays usable for its next call.
        req.unpipe(counter);
        req.resume();
        callback();
        return;
      }
      callback(null, chunk);
    },
  });
  dispatch(req.pipe(counter));
}

/**
 * Streams the request to the service and the answer back, never holding a body in memory, so a 100 MB video
 * passes through in small chunks. A body larger than the route allows is cut off with 413 and a refused or
 * broken connection is a 502; the gateway's timer answers 504, and the hop is dropped whenever the caller's
 * answer closes before the service's has ended.
 *
 * The hop is undici's: Node's own HTTP client (agent, `ClientRequest`, its parser) was a large share of the
 * gateway's CPU per proxied call (bench/gateway).
 */
export class HttpProxyUpstream implements Upstream {
  /**
   * Calls share a bounded pool per service: when a service lags, further calls wait their turn here (still under
   * the gateway's timer) instead of each opening a connection, which overflowed the service's listen backlog and
   * was answered with resets (502) once a service fell behind under load.
   */
  private readonly calls = new Map<ServiceName, Pool>();
  /** Event streams stay open as long as their clients do: they would hold the calls' pool, so they have their own. */
  private readonly streams = new Map<ServiceName, Pool>();

  constructor(
    private readonly baseUrls: Record<ServiceName, string>,
    private readonly connectionsPerService = UPSTREAM_CONNECTIONS,
  ) {}

  forward(req: IncomingMessage, res: ServerResponse, entry: RouteEntry, limits: RouteLimits, caller: Caller): void {
    const headers = forwardableHeaders(req.headers);
    headers['x-forwarded-for'] = caller.address;
    headers['x-forwarded-proto'] = caller.protocol;
    headers['x-forwarded-host'] = req.headers.host ?? '';

    const stream = entry.kind === 'stream';
    let abort: (error?: Error) => void = () => undefined;
    let answered = false;
    let resume = (): void => undefined;
    res.on('drain', () => resume());
    res.on('close', () => {
      if (!answered) abort();
    });

    const handler: Dispatcher.DispatchHandlers = {
      onConnect: (cancel) => {
        abort = cancel;
        if (res.destroyed) cancel();
      },
      onHeaders: (statusCode, raw, resumeAnswer) => {
        if (statusCode < 200) return true;
        resume = resumeAnswer;
        res.writeHead(statusCode, answerHeaders(raw));
        // Streams are written as they come; nothing is buffered by the gateway in between.
        if (stream) res.flushHeaders();
        return true;
      },
      onData: (chunk) => res.write(chunk),
      onComplete: () => {
        answered = true;
        res.end();
      },
      onError: () => {
        if (answered || res.writableEnded) return;
        if (!res.headersSent) gatewayUpstreamErrors.inc({ service: entry.service, kind: 'unreachable' });
        failCall(res, 502);
      },
    };
    const dispatch = (body: Buffer | Transform | null): void => {
      this.poolFor(entry.service, stream).dispatch({ path: req.url ?? '/', method: (req.method ?? 'GET') as Dispatcher.HttpMethod, headers, body, reset: stream }, handler);
    };
    sendBody(req, res, limits.maxBodyBytes, () => abort(), dispatch);
  }

  /** Closes every pooled connection (the gateway's shutdown). */
  async close(): Promise<void> {
    await Promise.all([...this.calls.values(), ...this.streams.values()].map((pool) => pool.close()));
  }

  private poolFor(service: ServiceName, stream: boolean): Pool {
    const pools = stream ? this.streams : this.calls;
    let pool = pools.get(service);
    if (!pool) {
      pool = new Pool(new URL(this.baseUrls[service]).origin, {
        connections: stream ? null : this.connectionsPerService,
        keepAliveTimeout: IDLE_CONNECTION_MS,
        keepAliveMaxTimeout: IDLE_CONNECTION_MS,
        // The gateway's own timer bounds a call (504) and a stream has none: undici's 300 s defaults would cut both.
        headersTimeout: 0,
        bodyTimeout: 0,
      });
      pools.set(service, pool);
    }
    return pool;
  }
}
