import { join } from 'node:path';
import { spawnTs } from '../src/testing';

const fixture = join(__dirname, 'fixtures/ping-process.main.ts');

/** A service process with a missing or malformed setting stops before serving anything and names the setting. */
describe('service process start-up', () => {
  it('refuses to start without its settings and names each one', async () => {
    const child = spawnTs(fixture, ['producer', 'cfg'], {
      DATABASE_URL: undefined,
      KAFKA_BROKERS: undefined,
      REDIS_URL: 'not a url',
      S3_ENDPOINT: undefined,
      AUTH_PUBLIC_KEY: undefined,
      PORT: 'eighty',
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    for (const name of ['DATABASE_URL', 'KAFKA_BROKERS', 'REDIS_URL', 'S3_ENDPOINT', 'PORT']) expect(child.output()).toContain(name);
  });
});
