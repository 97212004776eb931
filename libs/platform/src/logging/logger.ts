import pino, { type Logger } from 'pino';
import { currentContext } from '../context/request-context';

/**
 * JSON logs on stdout. Every line written inside a request or an event handler carries
 * its request and correlation ids, taken from the request context.
 */
export function createLogger(service: string, level = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin() {
      const context = currentContext();
      return context ? { requestId: context.requestId, correlationId: context.correlationId } : {};
    },
  });
}
