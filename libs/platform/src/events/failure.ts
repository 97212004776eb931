/**
 * Whether a failure may go away by itself (a database or broker that is restarting or unreachable, a
 * serialisation failure, a deadlock), so that retrying later can succeed, as opposed to one that will fail the
 * same way every time (a bug, a constraint, bad data). Transient failures are retried for as long as an outage
 * may last; permanent ones are parked after a few tries.
 */
export function isTransient(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 5; depth++) {
    if (typeof cause !== 'object') return false;
    const { code, name, message, retriable } = cause as { code?: unknown; name?: unknown; message?: unknown; retriable?: unknown };
    if (typeof code === 'string' && (TRANSIENT_CODES.has(code) || code.startsWith('08') || code.startsWith('53'))) return true;
    if (retriable === true || (typeof name === 'string' && TRANSIENT_NAMES.has(name))) return true;
    if (typeof message === 'string' && TRANSIENT_MESSAGES.some((text) => message.includes(text))) return true;
    cause = (cause as { driverError?: unknown; cause?: unknown }).driverError ?? (cause as { cause?: unknown }).cause;
  }
  return false;
}

/** PostgreSQL SQLSTATEs (besides classes 08, connection, and 53, resources) and Node socket errors. */
const TRANSIENT_CODES = new Set([
  '40001', // serialization_failure
  '40P01', // deadlock_detected
  '55P03', // lock_not_available
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

const TRANSIENT_NAMES = new Set(['KafkaJSConnectionError', 'KafkaJSRequestTimeoutError', 'KafkaJSNumberOfRetriesExceeded', 'KafkaJSBrokerNotFound', 'KafkaJSConnectionClosedError']);

/** What node-postgres and its pool say when the server goes away; they carry no code. */
const TRANSIENT_MESSAGES = ['Connection terminated', 'timeout exceeded when trying to connect', 'is not queryable', 'the database system is'];
