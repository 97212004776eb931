import { HttpException } from '@nestjs/common';
import { envelope } from './envelope';
import { messageForStatus } from './messages';

/**
 * A 429 that says when to come back: in the message (for people), in `data.retryAfter` (for the web app) and,
 * set by the exception filter, in the `Retry-After` header (for every HTTP client), as DESIGN.md §4 requires.
 */
export class TooManyRequestsException extends HttpException {
  readonly retryAfterSeconds: number;

  constructor(msBeforeNext: number) {
    const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
    super(envelope(429, `${messageForStatus(429)}（${seconds}秒后可重试）`, { retryAfter: seconds }), 429);
    this.retryAfterSeconds = seconds;
  }
}
