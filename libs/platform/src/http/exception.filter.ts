import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException } from '@nestjs/common';
import type { HttpAdapterHost } from '@nestjs/core';
import type { Logger } from 'pino';
import { envelope, type Envelope } from './envelope';
import { lateAnswersDropped } from '../metrics/metrics';
import { messageForStatus } from './messages';
import { TooManyRequestsException } from './too-many-requests';

/** What an error answers: its status, its envelope and, for a rate limit, when to try again. */
interface ErrorAnswer {
  status: number;
  body: Envelope;
  retryAfterSeconds?: number;
}

/**
 * Known HTTP errors keep their status and message; anything else is a 500 with the spec's message and no internals
 * (the details go to the log).
 */
function errorAnswer(exception: unknown, logger: Logger): ErrorAnswer {
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const body = exception.getResponse();
    const message = typeof body === 'string' ? body : messageOf(body, status);
    const data = typeof body === 'object' && body !== null && 'data' in body ? (body as { data: unknown }).data : null;
    const answer: ErrorAnswer = { status, body: envelope(status, message, data) };
    if (exception instanceof TooManyRequestsException) answer.retryAfterSeconds = exception.retryAfterSeconds;
    return answer;
  }
  logger.error({ err: exception }, 'unhandled error');
  return { status: 500, body: envelope(500, messageForStatus(500), null) };
}

/**
 * The one place an error thrown in Nest's pipeline, body parsing included, becomes an answer (see errorAnswer). It
 * answers through the application's HTTP adapter, so the gateway and the services share it.
 */
@Catch()
export class EnvelopeExceptionFilter implements ExceptionFilter {
  constructor(
    private readonly http: HttpAdapterHost,
    private readonly logger: Logger,
    private readonly service = 'gateway',
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw exception;
    const adapter = this.http.httpAdapter;
    const response: unknown = host.switchToHttp().getResponse();
    const request: unknown = host.switchToHttp().getRequest();
    // The call was answered already (the gateway's time-out in embedded mode) or its stream has begun: never twice.
    if (adapter.isHeadersSent(response)) {
      lateAnswersDropped.inc({ service: this.service });
      this.logger.warn({ err: exception, method: adapter.getRequestMethod?.(request), url: adapter.getRequestUrl?.(request) }, 'an answer came after its call was answered and was dropped');
      return;
    }
    const answer = errorAnswer(exception, this.logger);
    if (answer.retryAfterSeconds !== undefined) adapter.setHeader(response, 'Retry-After', String(answer.retryAfterSeconds));
    // A body over the limit is not read to its end: the connection cannot carry another call.
    if (answer.status === 413) adapter.setHeader(response, 'Connection', 'close');
    adapter.reply(response, answer.body, answer.status);
  }
}

function messageOf(body: object, status: number): string {
  const message = (body as { message?: unknown }).message;
  if (typeof message === 'string' && !isNestDefault(message)) return message;
  if (Array.isArray(message) && typeof message[0] === 'string') return message[0];
  return messageForStatus(status);
}

/** Nest's English defaults ("Not Found", "Forbidden resource", ...) give way to the spec's wording. */
function isNestDefault(message: string): boolean {
  return /^[A-Z][a-zA-Z ]+$/.test(message) || message.startsWith('Cannot ');
}
