import type { Request, Response } from 'express';
import { envelope, messageForStatus, type ServiceName } from '@shiliu/platform';
import type { Upstream } from './upstream';
import type { RouteEntry } from './route-table';

export type RequestHandler = (req: Request, res: Response) => void;

/** Embedded mode: the service's Nest application answers in this process, with no network hop. */
export class InProcessUpstream implements Upstream {
  constructor(private readonly handlers: Partial<Record<ServiceName, RequestHandler>>) {}

  forward(req: Request, res: Response, entry: RouteEntry): void {
    const handler = this.handlers[entry.service];
    if (!handler) {
      res.status(404).json(envelope(404, messageForStatus(404), null));
      return;
    }
    handler(req, res);
  }
}
