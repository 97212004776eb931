import type { Logger } from 'pino';
import { currentContext } from '../context/request-context';

/**
 * The embedded process hosts every service for every student, so a promise some code forgot to handle must not end
 * it: the rejection is logged, with its request when the rejection is noticed inside one, and the process goes on
 * serving. A distributed service process keeps Node's default, exiting to be restarted by its orchestrator.
 */
export function logUnhandledRejections(logger: Logger): void {
  process.on('unhandledRejection', (reason) => {
    const context = currentContext();
    logger.error({ err: reason, requestId: context?.requestId, correlationId: context?.correlationId }, 'a rejected promise was not handled; the process goes on serving');
  });
}
