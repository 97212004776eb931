import type { Socket } from 'node:net';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { FastifyReply } from 'fastify';
import type { Logger } from 'pino';
import { lateAnswersDropped } from '../metrics/metrics';
import { clientErrorAnswer } from './client-errors';
import { JSON_BODY_LIMIT_BYTES } from './input-guard';

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
