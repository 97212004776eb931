import { KafkaJSConnectionError, KafkaJSNonRetriableError, KafkaJSProtocolError } from 'kafkajs';
import { QueryFailedError } from 'typeorm';
import { isTransient } from './failure';

const pgError = (code: string, message = 'error') => Object.assign(new Error(message), { code });
const fromTypeorm = (code: string) => new QueryFailedError('SELECT 1', [], pgError(code));

describe('isTransient', () => {
  it.each([
    ['a serialisation failure', fromTypeorm('40001')],
    ['a deadlock', fromTypeorm('40P01')],
    ['a server shutting down', fromTypeorm('57P01')],
    ['a server starting up', pgError('57P03')],
    ['a lost connection (class 08)', pgError('08006')],
    ['too many connections (class 53)', pgError('53300')],
    ['a refused connection', pgError('ECONNREFUSED')],
    ['a connection that ended under the client', new Error('Connection terminated unexpectedly')],
    ['a pool that could not connect in time', new Error('timeout exceeded when trying to connect')],
    ['a broker out of reach', new KafkaJSConnectionError('Connection error: connect ECONNREFUSED')],
    ['a cause that is transient', new Error('wrapped', { cause: pgError('ECONNRESET') })],
  ])('says %s may pass', (_what, error) => {
    expect(isTransient(error)).toBe(true);
  });

  it.each([
    ['a bug', new Error('this handler has a bug')],
    ['a unique violation', fromTypeorm('23505')],
    ['bad input to SQL', fromTypeorm('22P02')],
    ['a broker refusing a message for good', new KafkaJSNonRetriableError(new KafkaJSProtocolError('Message too large'))],
    ['something thrown that is not an error', 'boom'],
  ])('says %s will not', (_what, error) => {
    expect(isTransient(error)).toBe(false);
  });
});
