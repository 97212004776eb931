import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { HttpProxyUpstream } from '@shiliu/gateway';
import { everyServiceAt, testGateway } from './test-gateway';

const POOL = 2;

/**
 * The distributed gateway's connections to a lagging service: calls beyond the pool wait in the gateway for a
 * connection (none is refused, none opens a connection of its own), and an unread stream still gets through while
 * every pooled connection is held.
 */
describe('gateway: a bounded pool of connections per service', () => {
  let gateway: NestExpressApplication;
  let upstream: Server;
  let base: string;
  const held: ServerResponse[] = [];
  let connections = 0;
  let mostConnections = 0;
  let arrived: () => void = () => undefined;

  beforeAll(async () => {
    upstream = createServer((req: IncomingMessage, res: ServerResponse) => {
      if (req.url?.startsWith('/api/notifications/stream')) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end('data: {"count":1}\n\n');
        return;
      }
      held.push(res);
      arrived();
    });
    upstream.on('connection', (socket) => {
      connections += 1;
      mostConnections = Math.max(mostConnections, connections);
      socket.on('close', () => (connections -= 1));
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    gateway = await testGateway({ mode: 'distributed', upstream: new HttpProxyUpstream(everyServiceAt(url), POOL) });
    base = await gateway.getUrl();
  });

  afterAll(async () => {
    await gateway?.close();
    upstream?.close();
  });

  const heldCount = (count: number) =>
    new Promise<void>((resolve) => {
      arrived = () => held.length >= count && resolve();
      arrived();
    });

  it('queues calls beyond the pool, lets a stream through meanwhile, and answers every call once a connection frees', async () => {
    const calls = Array.from({ length: 5 }, (_, n) => fetch(`${base}/api/posts?page=${n + 1}`));
    await heldCount(POOL);

    const stream = await fetch(`${base}/api/notifications/stream?ticket=t`);
    expect(stream.status).toBe(200);
    expect(await stream.text()).toBe('data: {"count":1}\n\n');
    expect(held).toHaveLength(POOL);

    for (let answeredCalls = 0; answeredCalls < calls.length; answeredCalls++) {
      await heldCount(Math.min(answeredCalls + POOL, calls.length));
      held[answeredCalls].writeHead(200, { 'content-type': 'application/json' }).end(`{"n":${answeredCalls}}`);
    }
    const answers = await Promise.all(calls);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    expect((await Promise.all(answers.map((answer) => answer.json() as Promise<{ n: number }>))).map((body) => body.n).sort()).toEqual([0, 1, 2, 3, 4]);
    // The pooled calls' connections plus the stream's own.
    expect(mostConnections).toBe(POOL + 1);
  });
});
