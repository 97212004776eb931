import type { IncomingMessage, ServerResponse } from 'node:http';
import { envelope, messageForStatus } from '@shiliu/platform/core';
import type { RouteEntry } from './route-table';
import type { RouteLimits } from './route-limits';

/** Who called, as the gateway's `trust proxy` setting lets it believe X-Forwarded-For and X-Forwarded-Proto. */
export interface Caller {
  address: string;
  protocol: string;
}

/** How the gateway hands a matched call to its service: an HTTP hop in distributed mode, a function call in embedded mode. */
export interface Upstream {
  forward(req: IncomingMessage, res: ServerResponse, entry: RouteEntry, limits: RouteLimits, caller: Caller): void;
}

/** Answers with the envelope for `status`, as the services' exception filter would. */
export function answerEnvelope(res: ServerResponse, status: number): void {
  const body = JSON.stringify(envelope(status, messageForStatus(status), null));
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}

/**
 * Answers a call the gateway gives up on with the envelope for `status`. If the service has already begun its
 * answer the connection is cut instead; if an answer is already complete (a later error after a timeout, say),
 * nothing more is done.
 */
export function failCall(res: ServerResponse, status: 401 | 413 | 429 | 502 | 504): void {
  if (res.writableEnded) return;
  if (res.headersSent) {
    res.destroy();
    return;
  }
  answerEnvelope(res, status);
}
