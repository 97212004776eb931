import { Writable } from 'node:stream';
import { contextForRequest, runInContext } from '../context/request-context';
import { createLogger } from './logger';

describe('createLogger', () => {
  const capture = () => {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    });
    return { lines, stream };
  };

  it('writes JSON lines that carry the request and correlation ids of the work in progress', () => {
    const { lines, stream } = capture();
    const logger = createLogger('content', 'info', stream);
    runInContext({ ...contextForRequest('request-12345678'), correlationId: 'correlation-1' }, () => logger.info('inside a request'));
    logger.info('outside any request');
    expect(lines[0]).toMatchObject({ service: 'content', msg: 'inside a request', requestId: 'request-12345678', correlationId: 'correlation-1' });
    expect(lines[1]).toMatchObject({ service: 'content', msg: 'outside any request' });
    expect(lines[1]).not.toHaveProperty('requestId');
  });

  it('makes a request id when the incoming one is missing or malformed', () => {
    expect(contextForRequest(undefined).requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(contextForRequest('bad id with spaces').requestId).toMatch(/^[0-9a-f-]{36}$/);
  });
});
