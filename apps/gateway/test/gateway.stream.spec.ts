import { createServer, type Server } from 'node:http';
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

  beforeAll(async () => {
    upstream = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let n = 0;
      const timer = setInterval(() => {
        res.write(`data: {"n":${++n}}\n\n`);
        if (n === 5) {
          clearInterval(timer);
          // Silent for longer than the proxy keeps an idle connection: a stream in use must not be taken for one.
          setTimeout(() => res.end(`data: {"n":6}\n\n`), 4_500);
        }
      }, 200);
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
    const started = Date.now();
    const answer = await fetch(`${base}/api/notifications/stream?access_token=t`);
    expect(answer.status).toBe(200);
    const reader = answer.body!.pipeThrough(new TextDecoderStream()).getReader();
    const arrivals: number[] = [];
    let text = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
      arrivals.push(Date.now() - started);
    }
    expect(text.match(/data: /g)).toHaveLength(6);
    // The first event came long before the last one was written (about 5.5 s in, far past the 500 ms timeout).
    expect(arrivals[0]).toBeLessThan(700);
    expect(arrivals.at(-1)).toBeGreaterThan(5000);
  });
});
