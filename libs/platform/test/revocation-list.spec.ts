import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { createLogger, RedisRevocationList } from '../src';
import { requireEnv, waitFor } from '../src/testing';

/**
 * The gateway's Redis client has no offline queue (a rate limit falls back to memory rather than wait), so on a
 * loaded machine its subscription can be up before the connection that reads the revoked set; the list must still
 * load the set, or the gateway never starts listening.
 */
describe('a Redis revocation list whose command connection comes up after its subscription', () => {
  const logger = createLogger('test', 'silent');
  let shared: Redis;
  let commands: Redis;
  const lists: RedisRevocationList[] = [];

  beforeAll(() => {
    shared = new Redis(requireEnv('REDIS_URL'));
  });
  afterAll(async () => {
    for (const list of lists) await list.close();
    commands?.disconnect();
    shared.disconnect();
  });

  it('loads the sessions revoked before it started once that connection is up', async () => {
    const early = new RedisRevocationList(shared, logger);
    lists.push(early);
    await early.whenReady();
    const sessionId = `early-${randomUUID()}`;
    await early.revoke([sessionId]);

    const subscribers = async () => ((await shared.pubsub('NUMSUB', 'shiliu:sessions-revoked')) as [string, number])[1];
    const before = await subscribers();
    commands = new Redis(requireEnv('REDIS_URL'), { enableOfflineQueue: false, lazyConnect: true });
    const late = new RedisRevocationList(commands, logger);
    lists.push(late);
    await waitFor('the late list to subscribe', async () => (await subscribers()) > before, 10_000, 20);
    await commands.connect();
    await late.whenReady();
    expect(late.isRevoked(sessionId)).toBe(true);
  });
});
