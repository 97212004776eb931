import { requireEnv, TcpProxy, waitFor } from '../src/testing';
import { PingProcesses } from './fixtures/ping-processes';

/**
 * Kafka is unreachable when the services start (they reach it through a proxy that the test holds cut): they
 * start anyway, report themselves not ready, keep what they produce in the outbox, and once Kafka answers
 * they connect, publish and consume by themselves, without a restart.
 */
describe('a service started while Kafka is down', () => {
  const pings = new PingProcesses();
  let proxy: TcpProxy;

  beforeAll(async () => {
    const [host, port] = requireEnv('KAFKA_BROKERS').split(',')[0].split(':');
    proxy = await TcpProxy.start({ host, port: Number(port) }, { cut: true });
    await pings.setUp({ kafkaBrokers: proxy.address });
  });

  afterAll(async () => {
    await pings.tearDown();
    await proxy.close();
  });

  it('reports not ready, then delivers its events once Kafka is reachable', async () => {
    pings.start('producer');
    pings.start('consumer');
    expect((await pings.health('producer', 503)).down).toEqual(['kafka producer']);
    expect((await pings.health('consumer', 503)).down).toEqual(expect.arrayContaining(['kafka consumer']));
    await pings.send(20, 0);

    proxy.restore();
    await Promise.all([pings.health('producer'), pings.health('consumer')]);
    await waitFor('the events written while Kafka was down to be handled', async () => (await pings.received()).distinct_events === 20, 120_000, 250);
    expect(await pings.received()).toEqual({ total: 20, distinct_events: 20 });
  });
});
