import { type IncomingHttpHeaders, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Transform } from 'node:stream';
import type { Request, Response } from 'express';
import type { ServiceName } from '@shiliu/platform';
import type { FailCall, Upstream } from './upstream';
import type { RouteEntry } from './route-table';
import type { RouteLimits } from './route-limits';

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host']);

function forwardableHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name.toLowerCase())));
}

/**
 * Streams the request to the service and the answer back, never holding a body in memory, so a 100 MB video
 * passes through in small chunks. A body larger than the route allows is cut off with 413, a refused or
 * broken connection is a 502, and a service slower than the route's timeout a 504.
 */
export class HttpProxyUpstream implements Upstream {
  constructor(private readonly baseUrls: Record<ServiceName, string>, private readonly fail: FailCall) {}

  forward(req: Request, res: Response, entry: RouteEntry, limits: RouteLimits): void {
    const target = new URL(req.originalUrl, this.baseUrls[entry.service]);
    const headers = forwardableHeaders(req.headers);
    headers['x-forwarded-for'] = req.ip ?? req.socket.remoteAddress ?? '';
    headers['x-forwarded-proto'] = req.protocol;
    headers['x-forwarded-host'] = req.headers.host ?? '';
    if (req.headers['transfer-encoding']) headers['transfer-encoding'] = req.headers['transfer-encoding'];

    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const upstream = send(target, { method: req.method, headers, timeout: limits.timeoutMs }, (answer) => {
      res.status(answer.statusCode ?? 502);
      for (const [name, value] of Object.entries(forwardableHeaders(answer.headers))) {
        if (value !== undefined) res.setHeader(name, value);
      }
      answer.pipe(res);
      answer.on('error', () => res.destroy());
    });
    upstream.on('timeout', () => {
      upstream.destroy();
      this.fail(res, 504);
    });
    upstream.on('error', () => this.fail(res, 502));
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });

    let received = 0;
    const counter = new Transform({
      transform: (chunk: Buffer, _encoding, callback) => {
        received += chunk.length;
        if (received > limits.maxBodyBytes) {
          upstream.destroy();
          this.fail(res, 413);
          callback();
          return;
        }
        callback(null, chunk);
      },
    });
    req.pipe(counter).pipe(upstream);
  }
}
