import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { createServiceApp, type ServiceApp } from '../src';
import { requireEnv, TcpProxy, testServiceRuntime, waitFor } from '../src/testing';
import { pingServices } from './fixtures/ping.fixture';

/** Readiness says when a client the service depends on has lost its server, and again when it is back, without a restart. */
describe('readiness follows the connections', () => {
  let proxy: TcpProxy;
  let redis: Redis;
  let service: ServiceApp;
  let baseUrl: string;

  beforeAll(async () => {
    const target = new URL(requireEnv('REDIS_URL'));
    proxy = await TcpProxy.start({ host: target.hostname, port: Number(target.port) });
    target.host = proxy.address;
    redis = new Redis(target.toString(), { maxRetriesPerRequest: 2 });
    redis.on('error', () => undefined);
    service = await createServiceApp(pingServices(randomUUID().slice(0, 8)).consumer, await testServiceRuntime({ redis }));
    await service.app.listen(0, '127.0.0.1');
    baseUrl = await service.app.getUrl();
  });

  afterAll(async () => {
    await service?.close();
    redis?.disconnect();
    await proxy?.close();
  });

  const ready = async () => {
    const answer = await fetch(`${baseUrl}/health/ready`);
    return { status: answer.status, body: (await answer.json()) as { message: string; data: { down?: string[] } } };
  };

  it('reports Redis down while it is unreachable and up once it is back', async () => {
    await waitFor('the service to be ready', async () => (await ready()).status === 200);
    proxy.cut();
    const down = await waitFor('readiness to report Redis down', async () => {
      const answer = await ready();
      return answer.status === 503 ? answer.body : null;
    });
    expect(down.data.down).toEqual(['redis']);
    expect(down.message).toMatch(/依赖不可用：redis/);
    proxy.restore();
    await waitFor('readiness to recover by itself', async () => (await ready()).status === 200, 60_000);
  });
});
