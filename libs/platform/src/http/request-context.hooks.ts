import type { FastifyInstance, FastifyRequest } from 'fastify';
import { contextForRequest, REQUEST_ID_HEADER, type RequestContext, runInContext } from '../context/request-context';

const contexts = new WeakMap<FastifyRequest, RequestContext>();

/**
 * Adopts the gateway's request id (or makes one), answers with it, and runs the guards, pipes and handler inside
 * the request's context (`preHandler`: after the body is read, whose stream events carry no context of ours).
 */
export function installRequestContext(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    const context = contextForRequest(request.headers[REQUEST_ID_HEADER]);
    request.headers[REQUEST_ID_HEADER] = context.requestId;
    void reply.header(REQUEST_ID_HEADER, context.requestId);
    contexts.set(request, context);
    done();
  });
  fastify.addHook('preHandler', (request, _reply, done) => {
    const context = contexts.get(request);
    if (context) runInContext(context, done);
    else done();
  });
}
