import type { NextFunction, Request, Response } from 'express';
import { envelope } from './envelope';
import { messageForStatus } from './messages';

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

function pathFlaw(path: string): string | null {
  try {
    return flaw(decodeURIComponent(path));
  } catch {
    return '请求路径格式不正确';
  }
}

/**
 * Text PostgreSQL cannot store (a NUL byte, a lone UTF-16 surrogate) and nesting deeper than any request needs
 * are refused with 400 at the edge of every service, in the path, the query and the body, before a handler or a
 * validator sees them: otherwise they surface as database or stack errors, that is as 500s.
 */
export function inputGuardMiddleware(req: Request, res: Response, next: NextFunction): void {
  const found = pathFlaw(req.path) ?? flaw(req.query) ?? flaw(req.body);
  if (!found) {
    next();
    return;
  }
  res.status(400).json(envelope(400, found, null));
}

/** The answer to a body that is not JSON, from whichever parser read it. */
export const BODY_NOT_JSON = { status: 400, message: '请求体不是有效的JSON' };

const bodyErrorMessages: Record<string, { status: number; message: string }> = {
  'entity.parse.failed': BODY_NOT_JSON,
  'entity.too.large': { status: 413, message: messageForStatus(413) },
  'entity.verify.failed': { status: 400, message: messageForStatus(400) },
  'request.aborted': { status: 400, message: '请求未完整发送' },
  'request.size.invalid': { status: 400, message: '请求长度与内容不符' },
  'encoding.unsupported': { status: 415, message: '不支持的请求编码' },
  'charset.unsupported': { status: 415, message: '不支持的字符集' },
  'parameters.too.many': { status: 413, message: messageForStatus(413) },
};

/** A body its Content-Encoding does not decode: the parser passes on zlib's error (no `type`), marked 400. */
const BODY_NOT_DECODABLE = { status: 400, message: '请求体压缩数据已损坏，无法解压' };

/** What a body parser's refusal answers, or undefined for an error that is not one. */
function bodyRefusal(error: unknown): { status: number; message: string } | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { type, status, errno } = error as { type?: unknown; status?: unknown; errno?: unknown };
  if (typeof type === 'string') return bodyErrorMessages[type];
  return status === 400 && typeof errno === 'number' ? BODY_NOT_DECODABLE : undefined;
}

/**
 * Body parser failures (malformed JSON, a body over the limit, an unknown or corrupt encoding) become envelopes
 * with a Chinese message, instead of the parser's English one or a 500.
 */
export function bodyErrorMiddleware(error: unknown, _req: Request, res: Response, next: NextFunction): void {
  const known = bodyRefusal(error);
  if (!known) {
    next(error);
    return;
  }
  if (known.status === 413) res.setHeader('Connection', 'close');
  res.status(known.status).json(envelope(known.status, known.message, null));
}
