import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { envelope } from './envelope';

/** The one limit on a request body other than uploads, in both modes: services and the gateway count arriving bytes against it. */
export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;

/** Deeper than any request of ours needs; deep enough input exhausts validators' recursion instead. */
export const MAX_INPUT_DEPTH = 32;

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why a request's text cannot be taken, or null when it can. */
function flaw(value: unknown, depth = 0): string | null {
  if (depth > MAX_INPUT_DEPTH) return '请求数据嵌套过深';
  if (typeof value === 'string') {
    if (value.includes('\u0000')) return '请求参数不能包含空字符';
    if (LONE_SURROGATE.test(value)) return '请求参数包含无效字符';
    return null;
  }
  if (value === null || typeof value !== 'object') return null;
  for (const [key, item] of Object.entries(value)) {
    const found = flaw(key, depth + 1) ?? flaw(item, depth + 1);
    if (found) return found;
  }
  return null;
}

/** What a path that does not decode (a stray `%`) answers, here and where Fastify's router refuses it. */
export const PATH_NOT_DECODABLE = '请求路径格式不正确';

function pathFlaw(path: string): string | null {
  try {
    return flaw(decodeURIComponent(path));
  } catch {
    return PATH_NOT_DECODABLE;
  }
}

/**
 * Text PostgreSQL cannot store (a NUL byte, a lone UTF-16 surrogate) and nesting deeper than any request needs
 * are refused with 400 at the edge of every service, in the path, the query and the body, before a handler or a
 * validator sees them: otherwise they surface as database or stack errors, that is as 500s. A Fastify
 * `preValidation` hook: the body has been parsed, no guard or handler has run.
 */
export function inputGuardHook(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  const url = request.url;
  const query = url.indexOf('?');
  const found = pathFlaw(query < 0 ? url : url.slice(0, query)) ?? flaw(request.query) ?? flaw(request.body);
  if (!found) {
    done();
    return;
  }
  void reply.code(400).send(envelope(400, found, null));
}
