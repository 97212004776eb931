import { type Server, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { envelope } from './envelope';
import { messageForStatus } from './messages';

/** The methods a path is served with (none for a path that does not exist). */
export type AllowedMethods = (path: string) => readonly string[];

/**
 * What a call with a method not served at its path answers: 405 with the methods that are (`Allow`) where the path
 * exists, 404 where it does not. One rule for a method Node knows (TRACE, PATCH) and one its parser refuses.
 */
export function methodRefusal(allowed: readonly string[]): { status: 404 | 405; headers: Record<string, string> } {
  return allowed.length > 0 ? { status: 405, headers: { Allow: allowed.join(', ') } } : { status: 404, headers: {} };
}

const REQUEST_LINE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ (\S+) HTTP\/1\.[01]\r?\n/;

/**
 * Calls Node's HTTP parser refuses before any handler sees them (headers or a URL over its 16 KB, a method it does
 * not know, a malformed request) are answered with the envelope, where Node would write an empty answer.
 */
export function answerClientErrors(server: Server, allowedMethods: AllowedMethods = () => []): void {
  server.on('clientError', clientErrorAnswer(allowedMethods));
}

/** What answers a call Node's parser refused (see answerClientErrors); Fastify takes it as its `clientErrorHandler`. */
export function clientErrorAnswer(allowedMethods: AllowedMethods = () => []): (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => void {
  return (error, socket) => {
    // A connection reset or already answered has no one left to tell.
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    let status = 400;
    let headers: Record<string, string> = {};
    if (error.code === 'HPE_HEADER_OVERFLOW') status = 431;
    else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') status = 408;
    else if (error.code === 'HPE_INVALID_METHOD') {
      const path = REQUEST_LINE.exec(error.rawPacket?.subarray(0, 8192).toString('latin1') ?? '')?.[1];
      if (path) ({ status, headers } = methodRefusal(allowedMethods(path.split('?')[0])));
    }
    const body = JSON.stringify(envelope(status, messageForStatus(status), null));
    const lines = [
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
      'Connection: close',
    ];
    socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`);
  };
}
