import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/**
 * What travels with one unit of work (an HTTP request or the handling of one event),
 * so that logs and the events it emits carry the same correlation id across processes.
 */
export interface RequestContext {
  requestId: string;
  correlationId: string;
  /** The id of the request or event that caused the current work. */
  causationId: string;
  actor: string | null;
}

const storage = new AsyncLocalStorage<RequestContext>();

export const REQUEST_ID_HEADER = 'x-request-id';

export function currentContext(): RequestContext | undefined {
  return storage.getStore();
}

export function runInContext<T>(context: RequestContext, work: () => T): T {
  return storage.run(context, work);
}

export function contextForRequest(incomingId: string | string[] | undefined): RequestContext {
  const requestId = typeof incomingId === 'string' && /^[\w.:-]{8,128}$/.test(incomingId) ? incomingId : randomUUID();
  return { requestId, correlationId: requestId, causationId: requestId, actor: null };
}
