import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { HttpProxyUpstream, routeLimits } from '@shiliu/gateway';
import { everyServiceAt, testGateway } from './test-gateway';

/**
 * The unread stream through the distributed gateway's proxy: each event reaches the client as the service writes it
 * (nothing buffered), and the stream outlives the whole-call timeout that every other call has.
 */
describe('gateway: a server-sent events stream passes through', () => {
  let gateway: NestExpressApplication;
  let upstream: Server;
  let base: string;
  /** The service's answer to the stream, which the test writes event by event. */
  let opened: (answer: ServerResponse) => void;
  const serviceAnswer = new Promise<ServerResponse>((resolve) => (opened = resolve));

  beforeAll(async () => {
    upstream = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
      opened(res);
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    gateway = await testGateway({
      mode: 'distributed',
      upstream: new HttpProxyUpstream(everyServiceAt(url)),
      routeLimits: { ...routeLimits, default: { ...routeLimits.default, timeoutMs: 500 } },
    });
    base = await gateway.getUrl();
  });

  afterAll(async () => {
    await gateway?.close();
    upstream?.close();
  });

  it('delivers each event as it is written and is not cut off by the call timeout', async () => {
    const answer = await fetch(`${base}/api/notifications/stream?ticket=t`);
    expect(answer.status).toBe(200);
    const reader = answer.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    const arrived = async (event: string) => {
      while (!text.includes(event)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`the stream ended before ${event.trim()}`);
        text += value;
      }
    };
    const service = await serviceAnswer;
    // The service writes the next event only once the client has the one before: had the proxy held any back, the
    // client would wait for it for ever.
    for (let n = 1; n <= 5; n++) {
      service.write(`data: {"n":${n}}\n\n`);
      await arrived(`data: {"n":${n}}\n\n`);
    }
    // Silent for longer than the call timeout and than the proxy keeps an idle connection: a stream in use is neither.
    await new Promise((resolve) => setTimeout(resolve, 4_500));
    service.end('data: {"n":6}\n\n');
    await arrived('data: {"n":6}\n\n');
    expect((await reader.read()).done).toBe(true);
    expect(text).toBe([1, 2, 3, 4, 5, 6].map((n) => `data: {"n":${n}}\n\n`).join(''));
  });
});
