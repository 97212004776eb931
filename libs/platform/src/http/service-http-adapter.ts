import type { Socket } from 'node:net';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { lateAnswersDropped } from '../metrics/metrics';
import { clientErrorAnswer } from './client-errors';
import { envelope } from './envelope';
import { JSON_BODY_LIMIT_BYTES, PATH_NOT_DECODABLE } from './input-guard';

export type TrustProxy = string | ((address: string, hop: number) => boolean);

/**
 * Every service's HTTP framework: Nest on Fastify, with the one body limit, the envelope for calls Node's parser
 * refuses, and an answer that comes after its call was answered (the gateway's time-out in embedded mode) dropped
 * and counted, as the exception filter does for a late error.
 */
export class ServiceHttpAdapter extends FastifyAdapter {
  constructor(
    private readonly service: string,
    private readonly log: Logger,
    trustProxy: TrustProxy,
  ) {
    super({
      bodyLimit: JSON_BODY_LIMIT_BYTES,
      trustProxy,
      clientErrorHandler: clientErrorAnswer() as (error: Error, socket: Socket) => void,
      // Object keys in file paths and tags in search paths run longer than Fastify's default of 100.
      routerOptions: { maxParamLength: 2048, ignoreTrailingSlash: true },
      // The router's one refusal before Nest sees the call: a path it cannot decode.
      frameworkErrors: (_error: Error, _request: FastifyRequest, reply: FastifyReply) => void reply.code(400).send(envelope(400, PATH_NOT_DECODABLE, null)),
    });
  }

  override reply(response: FastifyReply, body: unknown, statusCode?: number): FastifyReply {
    if (response.sent) {
      lateAnswersDropped.inc({ service: this.service });
      this.log.warn({ method: response.request.method, url: response.request.url, status: statusCode }, 'an answer came after its call was answered and was dropped');
      return response;
    }
    return super.reply(response, body, statusCode) as FastifyReply;
  }
}
