import type { IncomingMessage, ServerResponse } from 'node:http';
import etag from 'etag';
import fresh from 'fresh';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import proxyAddr from 'proxy-addr';
import { bearerToken, principalFor } from '../auth/access-token.guard';
import type { AuthRequirement } from '../auth/auth.decorators';
import type { RevocationList } from '../auth/revocation-list';
import type { Principal, TokenVerifier } from '../auth/token-verifier';
import { currentContext } from '../context/request-context';
import { timeHttpCall } from '../metrics/metrics';
import type { AnswerTracker } from './answer-tracker';
import { envelope } from './envelope';
import { errorAnswer } from './exception.filter';
import { WHOLE_ID } from './id.pipe';
import { requestContextMiddleware } from './request-context.middleware';

/** Who asks, as the route's Nest handler would have known it (an optional user, as @OptionalUserAuth reads one). */
export interface DirectCaller {
  principal: Principal | null;
  /** The client's address, as express's `req.ip` gives it under the app's `trust proxy` setting. */
  address: string;
  userAgent: string | undefined;
}

export type DirectWork = (caller: DirectCaller) => Promise<unknown>;

/**
 * A read answered from Node's request listener, before express's router and Nest's pipeline, which cost more than
 * the read itself once it is cached (a note's detail). It takes only the calls it answers exactly as its Nest
 * handler does: anything else (another shape of path or query, a token that is refused) goes on to Nest, so
 * validation and refusals keep one implementation.
 */
export interface DirectRoute {
  /** The route as Nest names it, for the metrics' label (`/api/posts/:id`). */
  readonly pattern: string;
  /**
   * The work for a GET of `path` with the query string `search` (without its `?`, read with `readQuery` once the
   * path is the route's) that this route answers, or null to leave the call to Nest.
   */
  match(path: string, search: string): DirectWork | null;
}

/** What the direct routes take: an optional user, as @OptionalUserAuth reads one. */
const OPTIONAL_USER: AuthRequirement = { audience: 'user', optional: true };

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;
type NestHandler = RequestHandler & { get(setting: string): unknown };

export interface DirectRoutesOptions {
  service: string;
  routes: DirectRoute[];
  /** The Nest application's express instance: every call no direct route takes. */
  nest: NestHandler;
  answers: AnswerTracker;
  verifier: TokenVerifier;
  revocations: RevocationList;
  logger: Logger;
}

/** The service's request listener: its direct routes first, then the Nest application. */
export function directRoutesHandler(options: DirectRoutesOptions): RequestHandler {
  const { routes, nest } = options;
  return (req, res) => {
    const taken = req.method === 'GET' ? routeFor(routes, req.url ?? '') : null;
    if (!taken) {
      nest(req, res);
      return;
    }
    // A token Nest's guard would refuse, or one that could not be checked, goes to Nest before this listener has
    // counted the call or opened its context, which Nest's own middleware does.
    principalOf(options, req).then(
      (principal) => {
        if (principal === 'refused') {
          nest(req, res);
          return;
        }
        options.answers.middleware(req, res, () => requestContextMiddleware(req as Request, res as Response, () => void answer(options, req, res, { ...taken, principal })));
      },
      () => nest(req, res),
    );
  };
}

function routeFor(routes: DirectRoute[], url: string): { route: DirectRoute; work: DirectWork } | null {
  const mark = url.indexOf('?');
  const path = mark < 0 ? url : url.slice(0, mark);
  const search = mark < 0 ? '' : url.slice(mark + 1);
  for (const route of routes) {
    const work = route.match(path, search);
    if (work) return { route, work };
  }
  return null;
}

interface TakenCall {
  route: DirectRoute;
  work: DirectWork;
  principal: Principal | null;
}

async function answer(options: DirectRoutesOptions, req: IncomingMessage, res: ServerResponse, call: TakenCall): Promise<void> {
  const stop = timeHttpCall(options.service, 'GET');
  let status: number;
  let body: string;
  try {
    const context = currentContext();
    if (context && call.principal) context.actor = call.principal.id;
    const address = proxyAddr(req, options.nest.get('trust proxy fn') as (address: string, hop: number) => boolean);
    const data = await call.work({ principal: call.principal, address, userAgent: req.headers['user-agent'] });
    status = 200;
    body = JSON.stringify(envelope(200, 'success', data ?? null));
  } catch (error) {
    const failed = errorAnswer(error, options.logger);
    if (failed.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(failed.retryAfterSeconds));
    status = failed.status;
    body = JSON.stringify(failed.body);
  }
  // As express's `res.json` answers: a weak ETag on every answer, and 304 for a success the browser already has.
  const tag = etag(body, { weak: true });
  res.setHeader('ETag', tag);
  if (status === 200 && fresh(req.headers, { etag: tag })) {
    res.statusCode = 304;
    res.end();
  } else {
    res.statusCode = status;
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Length', Buffer.byteLength(body));
    res.end(body);
  }
  stop(call.route.pattern, res.statusCode);
}

/** The caller's user, null for no token, or 'refused' for a token Nest's guard would refuse (it answers those). */
async function principalOf(options: DirectRoutesOptions, req: IncomingMessage): Promise<Principal | null | 'refused'> {
  const token = bearerToken(req.headers.authorization);
  if (!token) return null;
  return (await principalFor(options.verifier, options.revocations, token, OPTIONAL_USER)) ?? 'refused';
}

/** Reads one query parameter's value, or refuses it (undefined), in which case Nest answers the call. */
export type QueryReader<T> = (value: string) => T | undefined;

/**
 * The parameters of a direct route's query, each read by its reader and given at most once; null when another
 * parameter is given or a value is refused, so that the call goes to Nest and its validation.
 */
export function readQuery<T extends Record<string, unknown>>(search: string, readers: { [K in keyof T]: QueryReader<T[K]> }): Partial<T> | null {
  const values: Partial<T> = {};
  if (!search) return values;
  for (const [key, value] of new URLSearchParams(search)) {
    if (!Object.hasOwn(readers, key) || Object.hasOwn(values, key)) return null;
    const read = readers[key as keyof T](value);
    if (read === undefined) return null;
    values[key as keyof T] = read;
  }
  return values;
}

/** A whole number from `min` to `max` written plainly (no sign, zeros in front, or exponent). */
export const wholeNumberIn =
  (min: number, max: number): QueryReader<number> =>
  (value) => {
    if (!WHOLE_ID.test(value)) return undefined;
    const number = Number(value);
    return number >= min && number <= max ? number : undefined;
  };

/** One of the given words. */
export const oneOf =
  <T extends string>(...words: T[]): QueryReader<T> =>
  (value) =>
    words.find((word) => word === value);
