import pino, { type DestinationStream, type Logger } from 'pino';
import { currentContext } from '../context/request-context';

/**
 * JSON logs on stdout. Every line written inside a request or an event handler carries its request and
 * correlation ids, taken from the request context. A person at a terminal (`npm start`) gets the same lines
 * pretty-printed instead, unless LOG_FORMAT=json asks for the raw ones.
 */
export function createLogger(service: string, level = process.env.LOG_LEVEL ?? 'info', destination?: DestinationStream): Logger {
  const pretty = !destination && process.stdout.isTTY === true && process.env.LOG_FORMAT !== 'json';
  const options: pino.LoggerOptions = {
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin() {
      const context = currentContext();
      return context ? { requestId: context.requestId, correlationId: context.correlationId } : {};
    },
    ...(pretty ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname,service' } } } : {}),
  };
  return destination ? pino(options, destination) : pino(options);
}
