import etag from 'etag';
import type { FastifyInstance } from 'fastify';

/**
 * Every successful read carries a validator of its body (a weak ETag, as express gave), and a browser that sends
 * it back for an answer that has not changed gets 304 with no body.
 */
export function installEtags(fastify: FastifyInstance): void {
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if ((request.method !== 'GET' && request.method !== 'HEAD') || reply.statusCode !== 200 || reply.hasHeader('etag')) {
      done(null, payload);
      return;
    }
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) {
      done(null, payload);
      return;
    }
    const tag = etag(payload, { weak: true });
    void reply.header('etag', tag);
    if (matches(request.headers['if-none-match'], request.headers['cache-control'], tag)) {
      void reply.code(304);
      void reply.removeHeader('content-type');
      void reply.removeHeader('content-length');
      done(null, '');
      return;
    }
    done(null, payload);
  });
}

/** Whether the browser's copy is the one tagged `tag` (RFC 9110 §13.1.2: weak comparison; `no-cache` asks anew). */
function matches(ifNoneMatch: string | undefined, cacheControl: string | undefined, tag: string): boolean {
  if (!ifNoneMatch || /(?:^|,)\s*no-cache\s*(?:,|$)/.test(cacheControl ?? '')) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = tag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === opaque);
}
