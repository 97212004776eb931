import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpException } from '@nestjs/common';
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
import { lateAnswersDropped, timeHttpCall } from '../metrics/metrics';
import type { AnswerTracker } from './answer-tracker';
import { successEnvelope } from './envelope.interceptor';
import { errorAnswer } from './exception.filter';
import { WHOLE_ID } from './id.pipe';
import { BODY_NOT_JSON } from './input-guard';
import { requestContextMiddleware } from './request-context.middleware';

/** Who asks, as the route's Nest handler would have known it: a read's optional user, a write's required one. */
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
export interface DirectRead {
  /** The route as Nest names it, for the metrics' label (`/api/posts/:id`). */
  readonly pattern: string;
  readonly method?: 'GET';
  /**
   * The work for a GET of `path` with the query string `search` (without its `?`, read with `readQuery` once the
   * path is the route's) that this route answers, or null to leave the call to Nest.
   */
  match(path: string, search: string): DirectWork | null;
}

/** A write's work, for a logged-in user. */
export type DirectUserWork = (caller: DirectCaller & { principal: Principal }) => Promise<unknown>;

/** What a write does with its JSON body, or null to leave the call, the body it read included, to Nest. */
export type DirectBodyReader = (body: unknown) => DirectUserWork | null;

/**
 * A student's write answered from the request listener, as a DirectRead is, for a call whose whole work is one
 * statement (a like), where express, the body parser and Nest's pipeline cost more than the work. It takes a
 * logged-in user's call with a small JSON body (`Content-Type: application/json`, a `Content-Length` of at most
 * DIRECT_BODY_LIMIT_BYTES, no `Content-Encoding`) and reads the body itself; a body it does not take exactly
 * (another field, a value written otherwise) goes to Nest already parsed, and Nest validates it as always. The
 * work's result is the answer's data, or a `Reply` with its message.
 */
export interface DirectWrite {
  readonly pattern: string;
  readonly method: 'POST' | 'DELETE';
  /** For a call of this method to `path`: what to do with its body, or null to leave the call to Nest. */
  match(path: string, search: string): DirectBodyReader | null;
}

export type DirectRoute = DirectRead | DirectWrite;

/** The largest body a direct write reads itself; any larger goes to Nest's parser and its limit. */
export const DIRECT_BODY_LIMIT_BYTES = 4096;

/** What a direct read takes: an optional user, as @OptionalUserAuth reads one. */
const OPTIONAL_USER: AuthRequirement = { audience: 'user', optional: true };
/** What a direct write takes: a user, as @UserAuth does. */
const USER: AuthRequirement = { audience: 'user', optional: false };

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
    const taken = routeFor(routes, req.method ?? '', req.url ?? '');
    if (!taken) {
      nest(req, res);
      return;
    }
    if (taken.reader) void writeDirectly(options, req, res, taken.route, taken.reader);
    else void readDirectly(options, req, res, taken.route, taken.work);
  };
}

/**
 * A token Nest's guard would refuse, or one that could not be checked, goes to Nest before this listener has counted
 * the call or opened its context, which Nest's own middleware does.
 */
async function readDirectly(options: DirectRoutesOptions, req: IncomingMessage, res: ServerResponse, route: DirectRoute, work: DirectWork): Promise<void> {
  const principal = await principalOf(options, req, OPTIONAL_USER);
  if (principal === 'refused') options.nest(req, res);
  else enter(options, req, res, { route, principal, work });
}

/** As a read, and a call without a user goes to Nest too (whose guard answers 401), as does a body the route does not take. */
async function writeDirectly(options: DirectRoutesOptions, req: IncomingMessage, res: ServerResponse, route: DirectRoute, reader: DirectBodyReader): Promise<void> {
  if (!smallJsonBody(req)) {
    options.nest(req, res);
    return;
  }
  const principal = await principalOf(options, req, USER);
  if (principal === 'refused' || principal === null) {
    options.nest(req, res);
    return;
  }
  let bytes: Buffer;
  try {
    bytes = await bodyOf(req);
  } catch {
    // The client went away mid-body; there is no one to answer.
    return;
  }
  const body = parseJsonBody(bytes);
  let work: DirectUserWork | null;
  try {
    if (body === PARSE_FAILED) throw new HttpException(BODY_NOT_JSON.message, BODY_NOT_JSON.status);
    work = reader(body);
  } catch (error) {
    // Answered as a failed work is: the body parser's 400, or a fault of the route's own as a logged 500.
    enter(options, req, res, { route, principal, work: () => Promise.reject(error) });
    return;
  }
  if (!work) {
    // The stream is read, so Nest's body parser leaves `req.body` as it is.
    (req as IncomingMessage & { body?: unknown }).body = body;
    options.nest(req, res);
    return;
  }
  enter(options, req, res, { route, principal, work: (caller) => work({ ...caller, principal }) });
}

type Taken = { route: DirectRoute; work: DirectWork; reader?: undefined } | { route: DirectRoute; reader: DirectBodyReader; work?: undefined };

function routeFor(routes: DirectRoute[], method: string, url: string): Taken | null {
  if (method !== 'GET' && method !== 'POST' && method !== 'DELETE') return null;
  const mark = url.indexOf('?');
  const path = mark < 0 ? url : url.slice(0, mark);
  const search = mark < 0 ? '' : url.slice(mark + 1);
  for (const route of routes) {
    if ((route.method ?? 'GET') !== method) continue;
    if (isWrite(route)) {
      const reader = route.match(path, search);
      if (reader) return { route, reader };
    } else {
      const work = route.match(path, search);
      if (work) return { route, work };
    }
  }
  return null;
}

function isWrite(route: DirectRoute): route is DirectWrite {
  return route.method === 'POST' || route.method === 'DELETE';
}

/** A body a direct write reads itself: JSON in UTF-8, its length given and small, not compressed. */
function smallJsonBody(req: IncomingMessage): boolean {
  const type = req.headers['content-type']?.toLowerCase().replace(/\s+/g, '');
  if (type !== 'application/json' && type !== 'application/json;charset=utf-8') return false;
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') return false;
  const length = req.headers['content-length'];
  return length !== undefined && WHOLE_LENGTH.test(length) && Number(length) <= DIRECT_BODY_LIMIT_BYTES && req.headers['transfer-encoding'] === undefined;
}

const WHOLE_LENGTH = /^\d{1,5}$/;

/** The request's body; Node's parser has already held it to its Content-Length. */
function bodyOf(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.once('end', () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    req.once('error', reject);
    req.once('close', () => reject(new Error('request closed before its body ended')));
  });
}

const PARSE_FAILED = Symbol('unparsable');

/** The body as Nest's JSON parser reads it (strict: an object or an array; an empty body is `{}`), or PARSE_FAILED. */
function parseJsonBody(bytes: Buffer): unknown {
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  if (text.length === 0) return {};
  const first = /\S/.exec(text)?.[0];
  if (first !== '{' && first !== '[') return PARSE_FAILED;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return PARSE_FAILED;
  }
}

interface TakenCall {
  route: DirectRoute;
  principal: Principal | null;
  work: DirectWork;
}

/** Counts the call and opens its context, as Nest's first middleware does, then answers it. */
function enter(options: DirectRoutesOptions, req: IncomingMessage, res: ServerResponse, call: TakenCall): void {
  const answered = () =>
    void answer(options, req, res, call).catch((err: unknown) => options.logger.error({ err, method: req.method, url: req.url }, 'a direct answer failed'));
  options.answers.middleware(req, res, () => requestContextMiddleware(req as Request, res as Response, answered));
}

async function answer(options: DirectRoutesOptions, req: IncomingMessage, res: ServerResponse, call: TakenCall): Promise<void> {
  const method = req.method ?? 'GET';
  const stop = timeHttpCall(options.service, method);
  let status: number;
  let body: string;
  try {
    const context = currentContext();
    if (context && call.principal) context.actor = call.principal.id;
    const address = proxyAddr(req, options.nest.get('trust proxy fn') as (address: string, hop: number) => boolean);
    const data = await call.work({ principal: call.principal, address, userAgent: req.headers['user-agent'] });
    status = 200;
    body = JSON.stringify(successEnvelope(data));
  } catch (error) {
    const failed = errorAnswer(error, options.logger);
    if (failed.retryAfterSeconds !== undefined && !res.headersSent) res.setHeader('Retry-After', String(failed.retryAfterSeconds));
    status = failed.status;
    body = JSON.stringify(failed.body);
  }
  // The gateway's timer may have answered the call already, or the caller gone: a late answer is dropped, never written twice.
  if (res.headersSent || res.writableEnded || res.destroyed) {
    lateAnswersDropped.inc({ service: options.service });
    return;
  }
  // As express's `res.json` answers: a weak ETag on every answer, and 304 for a read the browser already has.
  const tag = etag(body, { weak: true });
  res.setHeader('ETag', tag);
  if (status === 200 && method === 'GET' && fresh(req.headers, { etag: tag })) {
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

/**
 * The caller's user, null for no token, or 'refused' for a token Nest's guard would refuse or that could not be
 * checked (Nest answers those).
 */
async function principalOf(options: DirectRoutesOptions, req: IncomingMessage, requirement: AuthRequirement): Promise<Principal | null | 'refused'> {
  const token = bearerToken(req.headers.authorization);
  if (!token) return null;
  try {
    return (await principalFor(options.verifier, options.revocations, token, requirement)) ?? 'refused';
  } catch {
    return 'refused';
  }
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
