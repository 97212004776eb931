import type { NextFunction, Request, Response } from 'express';
import { contextForRequest, REQUEST_ID_HEADER, runInContext } from '../context/request-context';

/** Adopts the gateway's request id (or makes one) and runs the rest of the request inside its context. */
export function requestContextMiddleware(req: Request, res: Response, next: NextFunction): void {
  const context = contextForRequest(req.headers[REQUEST_ID_HEADER]);
  req.headers[REQUEST_ID_HEADER] = context.requestId;
  res.setHeader(REQUEST_ID_HEADER, context.requestId);
  runInContext(context, next);
}
