import { z } from 'zod';
import { ConfigError, csv, loadConfig, port, url } from './config';

describe('loadConfig', () => {
  const shape = { DATABASE_URL: url(), PORT: port(8080), KAFKA_BROKERS: csv(), MODE: z.enum(['a', 'b']).default('a') };

  it('parses and converts what the environment gives, with defaults', () => {
    expect(loadConfig(shape, { DATABASE_URL: 'postgres://x@h/db', KAFKA_BROKERS: 'a:1, b:2' })).toEqual({
      DATABASE_URL: 'postgres://x@h/db',
      PORT: 8080,
      KAFKA_BROKERS: ['a:1', 'b:2'],
      MODE: 'a',
    });
  });

  it('names every missing or malformed setting at once', () => {
    let error: unknown;
    try {
      loadConfig(shape, { PORT: 'eighty', MODE: 'c' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const names = (error as ConfigError).problems.map((problem) => problem.split(':')[0]).sort();
    expect(names).toEqual(['DATABASE_URL', 'KAFKA_BROKERS', 'MODE', 'PORT']);
  });
});
