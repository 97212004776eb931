import type { Request, Response } from 'express';
import { envelope, messageForStatus } from '@shiliu/platform';
import type { RouteEntry } from './route-table';
import type { RouteLimits } from './route-limits';

/** How the gateway hands a matched call to its service: an HTTP hop in distributed mode, a function call in embedded mode. */
export interface Upstream {
  forward(req: Request, res: Response, entry: RouteEntry, limits: RouteLimits): void;
}

/**
 * Answers a call the gateway gives up on with the envelope for `status`. If the service has already begun its
 * answer the connection is cut instead; if an answer is already complete (a later error after a timeout, say),
 * nothing more is done.
 */
export function failCall(res: Response, status: 401 | 413 | 429 | 502 | 504): void {
  if (res.writableEnded) return;
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.status(status).json(envelope(status, messageForStatus(status), null));
}
