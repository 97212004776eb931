import { connect, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { assertRunning, freePort, spawnTs, waitFor } from '../src/testing';
import { PingProcesses } from './fixtures/ping-processes';

type Instance = { port: number; child: ReturnType<typeof spawnTs> };

/**
 * What a Kubernetes Service does to the pods behind it (kube-proxy): each new TCP connection goes round-robin to an
 * instance in rotation; one taken out of rotation gets no new connection, but the connections already open to it
 * stay, and a client that keeps them alive (the test's fetch, as the gateway's proxy does) keeps sending on them.
 */
class RoundRobin {
  readonly rotation: Instance[] = [];
  private next = 0;
  private readonly sockets = new Set<Socket>();
  private constructor(private readonly server: Server, readonly port: number) {}

  static async start(): Promise<RoundRobin> {
    let balancer: RoundRobin | null = null;
    const server = createServer((client) => balancer?.accept(client));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('balancer has no TCP address');
    balancer = new RoundRobin(server, address.port);
    return balancer;
  }

  private accept(client: Socket): void {
    this.next = (this.next + 1) % this.rotation.length;
    const upstream = connect(this.rotation[this.next].port, '127.0.0.1');
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('error', () => undefined);
      socket.once('close', () => {
        this.sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/**
 * Graceful shutdown under a rolling restart: two instances of a producing service behind a round-robin balancer take
 * a steady stream of writes over a kept-alive connection, each write putting one event in the outbox; each instance
 * in turn is replaced the way a Deployment rolls (the new one ready, then the old one out of rotation and sent
 * SIGTERM). The old one answers what still reaches it on open connections with `Connection: close`, so the client
 * moves to the new one and the old one can exit. Then the consumer is restarted the same way. No request fails, each
 * old instance exits 0, and the consumer handles every event exactly once, none redelivered.
 */
describe('rolling restart of a service under steady load', () => {
  const pings = new PingProcesses();
  const main = join(__dirname, 'fixtures/ping-process.main.ts');
  let balancer: RoundRobin;

  const startProducer = async (): Promise<Instance> => {
    const port = await freePort();
    const child = spawnTs(main, ['producer', pings.suffix], { ...pings.env, PORT: String(port) });
    await waitFor(`a producer on ${port} to be ready`, async () => {
      assertRunning(child);
      return (await fetch(`http://127.0.0.1:${port}/health/ready`).catch(() => null))?.status === 200;
    }, 120_000);
    return { port, child };
  };

  beforeAll(async () => {
    await pings.setUp();
    pings.start('consumer');
    balancer = await RoundRobin.start();
    const [first, second] = await Promise.all([startProducer(), startProducer()]);
    balancer.rotation.push(first, second);
    await pings.health('consumer');
  }, 300_000);

  afterAll(async () => {
    await balancer?.close();
    for (const instance of balancer?.rotation ?? []) instance.child.kill('SIGTERM');
    await pings.tearDown();
  });

  it('fails no request and loses no event while each instance is replaced', async () => {
    const statuses = new Map<number, number>();
    let sent = 0;
    let running = true;
    const load = (async () => {
      while (running) {
        const seq = sent++;
        const answer = await fetch(`http://127.0.0.1:${balancer.port}/api/pings`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ count: 1, from: seq }),
        }).catch(() => null);
        const status = answer?.status ?? 0;
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        await answer?.arrayBuffer();
      }
    })();
    const served = async (at: number) => waitFor(`${at} requests served`, async () => sent >= at, 120_000);

    await served(20);
    for (let i = 0; i < 2; i++) {
      const old = balancer.rotation[0];
      const replacement = await startProducer();
      balancer.rotation.push(replacement);
      balancer.rotation.splice(balancer.rotation.indexOf(old), 1);
      const exited = new Promise<number | null>((resolve) => old.child.once('exit', (code) => resolve(code)));
      old.child.kill('SIGTERM');
      expect(await exited).toBe(0);
      await served(sent + 20);
    }
    // The consumer rolls too: stopped with SIGTERM mid-stream, it commits the offsets of what it handled, so its
    // successor starts after them and meets no event a second time (the inbox would hide a second effect, the
    // metric shows the redelivery).
    const consumerExited = new Promise<number | null>((resolve) => pings.consumer.once('exit', (code) => resolve(code)));
    pings.consumer.kill('SIGTERM');
    expect(await consumerExited).toBe(0);
    pings.start('consumer');
    await pings.health('consumer');
    await served(sent + 20);
    running = false;
    await load;

    expect(Object.fromEntries(statuses)).toEqual({ 200: sent });
    await waitFor('every event to be handled', async () => (await pings.received()).total >= sent, 120_000);
    expect(await pings.received()).toEqual({ total: sent, distinct_events: sent });
    expect(await pings.consumerMetric('shiliu_events_handled_total', { outcome: 'duplicate' })).toBe(0);
  }, 600_000);
});
