import etag from 'etag';
import type { FastifyInstance } from 'fastify';
import fresh from 'fresh';

/** What a browser or a CDN in front may do with a read: keep it, and ask again each time with its validator. */
export const CACHE_SHARED = 'public, no-cache';
const CACHE_PRIVATE = 'private, no-cache';

/**
 * Every successful read carries a validator of its body (a weak ETag, as express gave), and a browser that sends
 * it back for an answer that has not changed gets 304 with no body.
 *
 * A read without credentials is the same for every visitor who sends none (feeds, a note, a comment page), so a
 * shared cache may keep it; with credentials it may hold the viewer's own state (liked, followed), so only the
 * viewer's browser may. Both say `Vary: Authorization` so a shared cache never hands one to the other. A route whose
 * answer is the same for everyone whoever asks (categories, tags) says so with `@Header('Cache-Control',
 * CACHE_SHARED)`, and a route that sets its own policy (the unread stream, files) keeps it.
 */
export function installHttpCaching(fastify: FastifyInstance): void {
  fastify.addHook('onSend', (request, reply, payload, done) => {
    const read = (request.method === 'GET' || request.method === 'HEAD') && reply.statusCode === 200;
    if (!read || reply.hasHeader('etag') || (typeof payload !== 'string' && !Buffer.isBuffer(payload))) {
      done(null, payload);
      return;
    }
    if (!reply.hasHeader('cache-control')) {
      void reply.header('cache-control', request.headers.authorization === undefined ? CACHE_SHARED : CACHE_PRIVATE);
      void reply.header('vary', 'Authorization');
    }
    const tag = etag(payload, { weak: true });
    void reply.header('etag', tag);
    if (fresh(request.headers, { etag: tag })) {
      void reply.code(304);
      void reply.removeHeader('content-type');
      void reply.removeHeader('content-length');
      done(null, '');
      return;
    }
    done(null, payload);
  });
}
