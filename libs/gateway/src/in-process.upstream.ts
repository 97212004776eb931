import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler, ServiceName } from '@shiliu/platform';
import { answerEnvelope, type Upstream } from './upstream';
import type { RouteEntry } from './route-table';

export type { RequestHandler };

/** Embedded mode: the service's Nest application answers in this process, with no network hop. */
export class InProcessUpstream implements Upstream {
  constructor(private readonly handlers: Partial<Record<ServiceName, RequestHandler>>) {}

  forward(req: IncomingMessage, res: ServerResponse, entry: RouteEntry): void {
    const handler = this.handlers[entry.service];
    if (!handler) {
      answerEnvelope(res, 404);
      return;
    }
    handler(req, res);
  }
}
