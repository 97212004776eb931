import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';

/**
 * The Node response under a Fastify reply, for an answer the handler writes itself (a byte range streamed from
 * storage, an event stream): Fastify stops answering for it, and the headers set so far (the request id) go along.
 */
export function takeOverResponse(reply: FastifyReply): ServerResponse {
  reply.hijack();
  const res = reply.raw;
  for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) res.setHeader(name, value);
  return res;
}
