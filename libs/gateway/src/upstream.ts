import type { Request, Response } from 'express';
import type { RouteEntry } from './route-table';
import type { RouteLimits } from './route-limits';

/** How the gateway hands a matched call to its service: an HTTP hop in distributed mode, a function call in embedded mode. */
export interface Upstream {
  forward(req: Request, res: Response, entry: RouteEntry, limits: RouteLimits): void;
}

/** Fails a call the gateway could not finish, unless the service already started answering. */
export type FailCall = (res: Response, status: 413 | 502 | 504) => void;
