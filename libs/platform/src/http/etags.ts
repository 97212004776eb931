import etag from 'etag';
import type { FastifyInstance } from 'fastify';
import fresh from 'fresh';

/**
 * Every successful read carries a validator of its body (a weak ETag, as express gave), and a browser that sends
 * it back for an answer that has not changed gets 304 with no body.
 */
export function installEtags(fastify: FastifyInstance): void {
  fastify.addHook('onSend', (request, reply, payload, done) => {
    const read = (request.method === 'GET' || request.method === 'HEAD') && reply.statusCode === 200;
    if (!read || reply.hasHeader('etag') || (typeof payload !== 'string' && !Buffer.isBuffer(payload))) {
      done(null, payload);
      return;
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

