import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { JSON_BODY_LIMIT_BYTES, metricsRegistry, type ServiceName } from '@shiliu/platform';
import { RateLimiter, HttpProxyUpstream, routeLimits } from '@shiliu/gateway';
import { waitFor } from '@shiliu/platform/testing';
import { everyServiceAt, rawConnection, testGateway } from './test-gateway';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

async function listen(handler: Handler): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** The gateway of distributed mode, proxying over HTTP to stand-in services. */
describe('gateway in distributed mode (HTTP proxy)', () => {
  let gateway: NestExpressApplication;
  let base: string;
  let baseUrls: Record<ServiceName, string>;
  const servers: Server[] = [];
  const slowCalls = { opened: 0, dropped: 0 };
  const seen: { method?: string; url?: string; headers?: IncomingMessage['headers']; bytes: number; calls: number } = { bytes: 0, calls: 0 };

  beforeAll(async () => {
    const content = await listen((req, res) => {
      seen.calls += 1;
      seen.method = req.method;
      seen.url = req.url;
      seen.headers = req.headers;
      seen.bytes = 0;
      req.on('data', (chunk: Buffer) => (seen.bytes += chunk.length));
      req.on('end', () => {
        res.writeHead(201, { 'content-type': 'application/json', 'x-from': 'content' });
        res.end(JSON.stringify({ code: 201, message: 'ok', data: { bytes: seen.bytes } }));
      });
    });
    const slow = await listen((req) => {
      slowCalls.opened += 1;
      req.socket.on('close', () => (slowCalls.dropped += 1));
    });
    const closed = await listen(() => undefined);
    await new Promise((resolve) => closed.server.close(resolve));
    servers.push(content.server, slow.server);

    baseUrls = everyServiceAt(content.url);
    baseUrls.social = slow.url;
    baseUrls.notify = closed.url;
    gateway = await testGateway({
      mode: 'distributed',
      upstream: new HttpProxyUpstream(baseUrls),
      probe: async () => ({ content: 'up', notify: 'down' }),
    });
    base = await gateway.getUrl();
  });

  afterAll(async () => {
    await gateway?.close();
    servers.forEach((server) => server.close());
  });

  it('forwards method, path, query, body and the request id to the owning service, and its answer back', async () => {
    const answer = await fetch(`${base}/api/posts?page=2&limit=5`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'request-abc-123' },
      body: JSON.stringify({ title: '你好' }),
    });
    expect(answer.status).toBe(201);
    expect(answer.headers.get('x-from')).toBe('content');
    expect(answer.headers.get('x-request-id')).toBe('request-abc-123');
    expect(seen.method).toBe('POST');
    expect(seen.url).toBe('/api/posts?page=2&limit=5');
    expect(seen.headers?.['x-request-id']).toBe('request-abc-123');
    expect(seen.headers?.['x-forwarded-for']).toBe('127.0.0.1');
    expect(seen.bytes).toBe(Buffer.byteLength(JSON.stringify({ title: '你好' })));
  });

  // A caller sending its body slowly (or never finishing it) would otherwise hold one of the service's connections.
  it('hands a small body to the service only once it has all arrived', async () => {
    const { socket, received, answered } = rawConnection(base);
    const head = 'POST /api/likes HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 31\r\n\r\n';
    socket.write(`${head}{"target_type":1,`);
    const callsBefore = seen.calls;
    expect((await fetch(`${base}/api/posts/7/comments`)).status).toBe(201);
    expect({ calls: seen.calls - callsBefore, url: seen.url }).toEqual({ calls: 1, url: '/api/posts/7/comments' });

    socket.write('"target_id":1}');
    await answered(1);
    expect(received()).toMatch(/^HTTP\/1\.1 201 /);
    expect({ calls: seen.calls - callsBefore, url: seen.url, bytes: seen.bytes }).toEqual({ calls: 2, url: '/api/likes', bytes: 31 });
    socket.destroy();
  });

  it('answers a proxied call with the security headers, believes a trusted proxy about the caller and counts the call under its route', async () => {
    const answer = await fetch(`${base}/api/posts/42`, { headers: { 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'https' } });
    expect(answer.status).toBe(201);
    expect(answer.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(answer.headers.get('x-powered-by')).toBeNull();
    // The loopback peer is a trusted proxy in these tests, so the address it forwards for is the caller's.
    expect(seen.headers?.['x-forwarded-for']).toBe('203.0.113.7');
    expect(seen.headers?.['x-forwarded-proto']).toBe('https');
    // The call is counted when its answer has finished, which the caller may see a moment before the gateway does.
    const counted = 'shiliu_http_request_duration_seconds_count{service="gateway",method="GET",route="/api/posts/:id",status="201"} 1';
    await waitFor('the call to be counted', async () => (await metricsRegistry.metrics()).includes(counted), 5_000, 20);
  });

  it('streams a 100 MB video upload through without holding it in memory', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 7);
    let sent = 0;
    // Which of the 100 chunks the client was about to send when the service got its first bytes.
    let firstArrivalAt = -1;
    seen.bytes = 0;
    seen.url = undefined;
    const body = Readable.from(
      (function* () {
        for (let i = 0; i < 100; i++) {
          if (firstArrivalAt < 0 && seen.url === '/api/upload/video' && seen.bytes > 0) firstArrivalAt = i;
          sent += chunk.length;
          yield chunk;
        }
      })(),
    );
    const before = process.memoryUsage().rss;
    const answer = await fetch(`${base}/api/upload/video`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: Readable.toWeb(body) as ReadableStream,
      duplex: 'half',
    } as RequestInit);
    const grown = process.memoryUsage().rss - before;
    expect(answer.status).toBe(201);
    expect(seen.bytes).toBe(100 * 1024 * 1024);
    expect(sent).toBe(100 * 1024 * 1024);
    // Streaming, not buffering: the service had bytes while most of the body was still to be sent.
    expect(firstArrivalAt).toBeGreaterThan(0);
    expect(firstArrivalAt).toBeLessThan(50);
    // The client's own buffers share this process, so memory is only a coarse bound: less than the body itself.
    expect(grown).toBeLessThan(100 * 1024 * 1024);
  });

  it('cuts off a streamed body larger than the route allows with 413', async () => {
    const chunk = Buffer.alloc(256 * 1024, 1);
    const body = Readable.from(
      (function* () {
        for (let i = 0; i < 40; i++) yield chunk;
      })(),
    );
    const answer = await fetch(`${base}/api/posts`, { method: 'POST', body: Readable.toWeb(body) as ReadableStream, duplex: 'half' } as RequestInit);
    expect(answer.status).toBe(413);
    expect(await answer.json()).toEqual({ code: 413, message: '请求内容过大', data: null });
  });

  it('answers an over-long streamed body its 413 and reads the rest of it, keeping the connection for the next call', async () => {
    // Left unread, the rest would stall the connection; closed on instead, the bytes still arriving would be answered
    // with a reset that can discard the 413. So the rest is read and dropped, as for a declared size.
    const { socket, received, errors, answered } = rawConnection(base);
    const piece = Buffer.concat([Buffer.from(`${(64 * 1024).toString(16)}\r\n`), Buffer.alloc(64 * 1024, 120), Buffer.from('\r\n')]);
    const sendPieces = async (count: number) => {
      for (let i = 0; i < count; i++) if (!socket.write(piece)) await new Promise((resolve) => socket.once('drain', resolve));
    };
    socket.write('POST /api/posts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n');
    await sendPieces(JSON_BODY_LIMIT_BYTES / (64 * 1024) + 1);
    await answered(1);
    expect(received()).toMatch(/^HTTP\/1\.1 413 /);
    expect(received()).not.toMatch(/connection: close/i);
    await sendPieces(32);
    socket.write('0\r\n\r\nGET /api/posts/1 HTTP/1.1\r\nHost: x\r\n\r\n');
    await answered(2);
    expect(received().split('HTTP/1.1 ')[2]).toMatch(/^201 /);
    expect(errors).toEqual([]);
    socket.destroy();
  });

  it('holds a chunked body to the services’ own 1 MB limit, counting the bytes that arrive', async () => {
    const send = (bytes: number) =>
      fetch(`${base}/api/posts`, { method: 'POST', body: Readable.toWeb(Readable.from([Buffer.alloc(bytes, 1)])) as ReadableStream, duplex: 'half' } as RequestInit);
    expect((await send(JSON_BODY_LIMIT_BYTES)).status).toBe(201);
    const over = await send(JSON_BODY_LIMIT_BYTES + 1);
    expect(over.status).toBe(413);
    expect(await over.json()).toEqual({ code: 413, message: '请求内容过大', data: null });
  });

  it('answers 502 when the service is down', async () => {
    const answer = await fetch(`${base}/api/notifications/likes`);
    expect(answer.status).toBe(502);
    expect(await answer.json()).toEqual({ code: 502, message: '服务暂时不可用，请稍后重试', data: null });
  });

  it('answers 504 when the service is slower than the route timeout', async () => {
    // A gateway of its own with a short timeout: the service never answers, so any timeout shows it, while every
    // other call in this file, however busy the machine, keeps the usual 60 s.
    const impatient = await testGateway({
      mode: 'distributed',
      upstream: new HttpProxyUpstream(baseUrls),
      routeLimits: { ...routeLimits, default: { ...routeLimits.default, timeoutMs: 500 } },
    });
    try {
      const answer = await fetch(`${await impatient.getUrl()}/api/users/someone/followers`);
      expect(answer.status).toBe(504);
      expect(await answer.json()).toEqual({ code: 504, message: '服务响应超时，请稍后重试', data: null });
      // The gateway drops its hop to the slow service rather than leave it open until the service answers.
      await waitFor('the gateway to drop its hop to the slow service', async () => slowCalls.dropped > 0, 60_000, 20);
      expect(slowCalls).toEqual({ opened: 1, dropped: 1 });
    } finally {
      await impatient.close();
    }
  });

  it('answers 429 with Retry-After once a client passes its rate limit', async () => {
    const limited = await testGateway({
      mode: 'distributed',
      upstream: new HttpProxyUpstream(everyServiceAt('http://127.0.0.1:9')),
      rateLimiter: new RateLimiter({ points: 2, windowSeconds: 60 }),
    });
    try {
      const url = `${await limited.getUrl()}/api/posts`;
      expect((await fetch(url)).status).toBe(502);
      expect((await fetch(url)).status).toBe(502);
      const refused = await fetch(url);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await refused.json()).toEqual({ code: 429, message: '请求过于频繁，请稍后再试', data: null });
    } finally {
      await limited.close();
    }
  });

  it('answers 503 on /api/health naming the service that is down', async () => {
    const answer = await fetch(`${base}/api/health`);
    expect(answer.status).toBe(503);
    expect(await answer.json()).toEqual({
      code: 503,
      message: '服务不可用: notify',
      data: { status: 'degraded', mode: 'distributed', services: { content: 'up', notify: 'down' } },
    });
  });
});
