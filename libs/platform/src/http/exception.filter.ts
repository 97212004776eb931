import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException } from '@nestjs/common';
import type { Response } from 'express';
import type { Logger } from 'pino';
import { envelope } from './envelope';
import { messageForStatus } from './messages';
import { TooManyRequestsException } from './too-many-requests';

/**
 * The one place an error becomes an answer: known HTTP errors keep their status and message,
 * anything else is a 500 with the spec's message and no internals (the details go to the log).
 */
@Catch()
export class EnvelopeExceptionFilter implements ExceptionFilter {
  constructor(private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw exception;
    const response = host.switchToHttp().getResponse<Response>();
    if (response.headersSent) return;
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const body = exception.getResponse();
      const message = typeof body === 'string' ? body : messageOf(body, status);
      const data = typeof body === 'object' && body !== null && 'data' in body ? (body as { data: unknown }).data : null;
      if (exception instanceof TooManyRequestsException) response.setHeader('Retry-After', String(exception.retryAfterSeconds));
      response.status(status).json(envelope(status, message, data));
      return;
    }
    this.logger.error({ err: exception }, 'unhandled error');
    response.status(500).json(envelope(500, messageForStatus(500), null));
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
