import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { Readable } from 'node:stream';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { HttpProxyUpstream, InProcessUpstream, type RequestHandler } from '@shiliu/gateway';
import express from 'express';
import { everyServiceAt, testGateway } from './test-gateway';
import { HASHED_ASSET, HASHED_SOURCE } from './web-fixture';

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A call as a browser makes it, with the answer's bytes as they came: `fetch` would decode them without saying. */
function call(url: string, headers: Record<string, string> = {}, method = 'GET', pauseMs = 0): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => {
        // A slow reader: the first chunk, then nothing read for a while, so that every buffer on the way fills up.
        if (chunks.length === 0 && pauseMs > 0) {
          res.pause();
          setTimeout(() => res.resume(), pauseMs);
        }
        chunks.push(chunk);
      });
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

/** The answer's body as its `Content-Encoding` says to read it. */
function decoded(answer: RawAnswer): Buffer {
  const encoding = answer.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(answer.body);
  if (encoding === 'gzip') return gunzipSync(answer.body);
  if (encoding !== undefined) throw new Error(`unexpected encoding ${encoding}`);
  return answer.body;
}

/** The first bytes of an event stream, read while the service still holds it open; then the call is dropped. */
function firstEvent(url: string, headers: Record<string, string>): Promise<{ headers: IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const call = request(url, { headers }, (res) => {
      res.once('data', (chunk: Buffer) => {
        resolve({ headers: res.headers, text: chunk.toString('utf8') });
        call.destroy();
      });
    });
    call.on('error', reject).end();
  });
}

const LIST = { code: 200, message: 'success', data: { list: Array.from({ length: 40 }, (_, n) => ({ id: n, title: `第${n}篇笔记`, content: '校园里的一天。'.repeat(5) })) } };
const ONE = { code: 200, message: 'success', data: { id: 1, title: '短' } };
/** 1.6 MB of JSON lines, in 2,000 writes, different enough that they do not compress to nothing. */
function* bigLines(): Generator<string> {
  for (let n = 0; n < 2_000; n++) yield `${JSON.stringify({ n, text: Array.from({ length: 9 }, (_, k) => createHash('sha512').update(`${n}:${k}`).digest('base64')).join('') })}\n`;
}
const BIG = [...bigLines()].join('');
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(8 * 1024, 3)]);

/**
 * A stand-in for the services, the same Express app answering in the gateway's process (embedded mode) and behind
 * its HTTP proxy (distributed mode): a long JSON list, a short note, an image, a text file served with ranges and an
 * event stream that stays open.
 */
function stubService() {
  const dir = mkdtempSync(join(tmpdir(), 'shiliu-files-'));
  writeFileSync(join(dir, 'notes.txt'), '一行笔记\n'.repeat(500));
  const app = express();
  app.get('/api/posts', (_req, res) => void res.json(LIST));
  app.get('/api/posts/1', (_req, res) => void res.json(ONE));
  // A long answer of unknown length, written as a stream that waits whenever the answer says it is full.
  app.get('/api/categories', (_req, res) => {
    res.type('json');
    Readable.from(bigLines()).pipe(res);
  });
  app.get('/api/files/cover.png', (_req, res) => void res.type('png').send(PNG));
  app.get('/api/files/notes.txt', (_req, res) => res.sendFile('notes.txt', { root: dir }));
  app.get('/api/notifications/stream', (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache' });
    res.write(`data: ${JSON.stringify({ unread: 3, padding: 'x'.repeat(2048) })}\n\n`);
    const keepAlive = setInterval(() => res.write(': ping\n\n'), 1_000);
    res.on('close', () => clearInterval(keepAlive));
  });
  return { app, notes: readFileSync(join(dir, 'notes.txt')) };
}

const BROWSER = 'gzip, deflate, br, zstd';

describe('gateway: what a browser is sent, and how', () => {
  const service = stubService();
  let embedded: NestExpressApplication;
  let distributed: NestExpressApplication;
  let serviceServer: Server;
  let base: { embedded: string; distributed: string };

  beforeAll(async () => {
    serviceServer = service.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => serviceServer.once('listening', resolve));
    const handler = service.app as unknown as RequestHandler;
    embedded = await testGateway({ mode: 'embedded', upstream: new InProcessUpstream({ content: handler, media: handler, notify: handler }) });
    const serviceUrl = `http://127.0.0.1:${(serviceServer.address() as AddressInfo).port}`;
    distributed = await testGateway({ mode: 'distributed', upstream: new HttpProxyUpstream(everyServiceAt(serviceUrl)) });
    base = { embedded: await embedded.getUrl(), distributed: await distributed.getUrl() };
  });

  afterAll(async () => {
    await embedded?.close();
    await distributed?.close();
    serviceServer?.closeAllConnections();
    serviceServer?.close();
  });

  describe('the security policy follows how the page was reached', () => {
    it('over plain http: no upgrade of its requests to https and no HSTS, the rest of the policy as ever', async () => {
      for (const path of ['/explore', '/api/posts/1']) {
        const answer = await call(`${base.embedded}${path}`);
        const policy = String(answer.headers['content-security-policy']);
        expect(policy).toContain("script-src 'self'");
        expect(policy).toContain("default-src 'self'");
        expect(policy).toContain("object-src 'none'");
        expect(policy).toContain("frame-ancestors 'none'");
        expect(policy).not.toContain('upgrade-insecure-requests');
        expect(answer.headers['strict-transport-security']).toBeUndefined();
        expect(answer.headers['x-content-type-options']).toBe('nosniff');
        expect(answer.headers['x-frame-options']).toBe('SAMEORIGIN');
      }
    });

    it('over https at a trusted proxy: both, with the same policy besides', async () => {
      const plain = await call(`${base.distributed}/explore`);
      const answer = await call(`${base.distributed}/explore`, { 'x-forwarded-proto': 'https' });
      const policy = String(answer.headers['content-security-policy']);
      expect(policy).toContain('upgrade-insecure-requests');
      expect(answer.headers['strict-transport-security']).toMatch(/^max-age=\d{7,}/);
      expect(policy.replace(/;?upgrade-insecure-requests/, '')).toBe(plain.headers['content-security-policy']);
      const proxied = await call(`${base.distributed}/api/posts/1`, { 'x-forwarded-proto': 'https' });
      expect(proxied.headers['content-security-policy']).toBe(policy);
      expect(proxied.headers['strict-transport-security']).toBe(answer.headers['strict-transport-security']);
    });

    it('a script, style or picture carries only what applies to a file loaded into a page: no sniffing, HSTS over https', async () => {
      for (const [path, https] of [[HASHED_ASSET, false], [HASHED_ASSET, true], ['/favicon.svg', false]] as const) {
        const answer = await call(`${base.distributed}${path}`, https ? { 'x-forwarded-proto': 'https' } : {});
        expect(answer.status).toBe(200);
        expect(answer.headers['x-content-type-options']).toBe('nosniff');
        if (path.endsWith('.svg')) {
          // An SVG opened on its own is a document that can run script: it keeps the whole policy.
          expect(String(answer.headers['content-security-policy'])).toContain("script-src 'self'");
          continue;
        }
        expect(answer.headers['content-security-policy']).toBeUndefined();
        expect(answer.headers['x-frame-options']).toBeUndefined();
        expect(answer.headers['strict-transport-security'] !== undefined).toBe(https);
      }
    });
  });

  describe('the web app', () => {
    it('serves a hashed asset for a year, immutable, and index.html, the page fallback and the service worker revalidated', async () => {
      expect((await call(`${base.embedded}${HASHED_ASSET}`)).headers['cache-control']).toBe('public, max-age=31536000, immutable');
      for (const path of ['/', '/index.html', '/explore/food', '/sw.js']) {
        const answer = await call(`${base.embedded}${path}`, { 'accept-encoding': BROWSER });
        expect({ path, status: answer.status, cacheControl: answer.headers['cache-control'] }).toEqual({ path, status: 200, cacheControl: 'no-cache' });
      }
      expect((await call(`${base.embedded}/assets/app.js`)).headers['cache-control']).toBe('public, max-age=3600');
      const missing = await call(`${base.embedded}/assets/index-Zz9_Zz9-.js`);
      expect(missing.status).toBe(404);
      expect(missing.headers['cache-control'] ?? '').not.toContain('immutable');
    });

    it.each([
      ['br', BROWSER, 'br'],
      ['gzip', 'gzip, deflate', 'gzip'],
      ['a browser refusing br', 'br;q=0, gzip', 'gzip'],
      ['nothing', '', undefined],
    ])('sends the precompressed copy by Accept-Encoding (%s)', async (_name, acceptEncoding, encoding) => {
      const answer = await call(`${base.embedded}${HASHED_ASSET}`, acceptEncoding === '' ? {} : { 'accept-encoding': acceptEncoding });
      expect(answer.status).toBe(200);
      expect(answer.headers['content-encoding']).toBe(encoding);
      expect(answer.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(answer.headers.vary).toContain('Accept-Encoding');
      expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(decoded(answer).toString('utf8')).toBe(HASHED_SOURCE);
      if (encoding) expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
    });

    it('answers HEAD like GET and a range from the file as it is', async () => {
      const head = await call(`${base.embedded}${HASHED_ASSET}`, { 'accept-encoding': BROWSER }, 'HEAD');
      expect(head.status).toBe(200);
      expect(head.headers['content-encoding']).toBe('br');
      expect(head.body.length).toBe(0);
      const range = await call(`${base.embedded}${HASHED_ASSET}`, { 'accept-encoding': BROWSER, range: 'bytes=0-9' });
      expect(range.status).toBe(206);
      expect(range.headers['content-encoding']).toBeUndefined();
      expect(range.headers['content-range']).toBe(`bytes 0-9/${Buffer.byteLength(HASHED_SOURCE)}`);
      expect(range.body.toString('utf8')).toBe(Buffer.from(HASHED_SOURCE).subarray(0, 10).toString('utf8'));
    });

    it('serves a file the build left no copy of as it is', async () => {
      const answer = await call(`${base.embedded}/assets/app.js`, { 'accept-encoding': BROWSER });
      expect(answer.headers['content-encoding']).toBeUndefined();
      expect(answer.body.toString('utf8')).toBe('console.log("app")');
    });
  });

  describe.each(['embedded', 'distributed'] as const)('API answers in %s mode', (mode) => {
    it.each([
      ['br', BROWSER],
      ['gzip', 'gzip, deflate'],
    ])('compresses one over 1 KB with %s, which decodes to the same JSON', async (encoding, acceptEncoding) => {
      const answer = await call(`${base[mode]}/api/posts`, { 'accept-encoding': acceptEncoding });
      expect(answer.status).toBe(200);
      expect(answer.headers['content-encoding']).toBe(encoding);
      expect(answer.headers.vary).toContain('Accept-Encoding');
      expect(answer.headers['content-length']).toBeUndefined();
      expect(answer.body.length).toBeLessThan(Buffer.byteLength(JSON.stringify(LIST)) / 2);
      expect(JSON.parse(decoded(answer).toString('utf8'))).toEqual(LIST);
    });

    it('streams a long answer of unknown length through the compressor, whole, to a slow reader', async () => {
      const answer = await call(`${base[mode]}/api/categories`, { 'accept-encoding': BROWSER }, 'GET', 500);
      expect(answer.headers['content-encoding']).toBe('br');
      expect(answer.headers['transfer-encoding']).toBe('chunked');
      expect(decoded(answer).toString('utf8')).toBe(BIG);
    });

    it('sends one over 1 KB as it is to a client that takes no compression', async () => {
      const answer = await call(`${base[mode]}/api/posts`);
      expect(answer.headers['content-encoding']).toBeUndefined();
      expect(JSON.parse(answer.body.toString('utf8'))).toEqual(LIST);
    });

    it('leaves one under 1 KB as it is', async () => {
      const answer = await call(`${base[mode]}/api/posts/1`, { 'accept-encoding': BROWSER });
      expect(answer.headers['content-encoding']).toBeUndefined();
      expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
      expect(JSON.parse(answer.body.toString('utf8'))).toEqual(ONE);
    });

    it('leaves images and ranges as they are', async () => {
      const image = await call(`${base[mode]}/api/files/cover.png`, { 'accept-encoding': BROWSER });
      expect(image.headers['content-encoding']).toBeUndefined();
      expect(image.body.equals(PNG)).toBe(true);
      const range = await call(`${base[mode]}/api/files/notes.txt`, { 'accept-encoding': BROWSER, range: 'bytes=100-1099' });
      expect(range.status).toBe(206);
      expect(range.headers['content-encoding']).toBeUndefined();
      expect(range.body.equals(service.notes.subarray(100, 1100))).toBe(true);
      const whole = await call(`${base[mode]}/api/files/notes.txt`, { 'accept-encoding': BROWSER });
      expect(decoded(whole).equals(service.notes)).toBe(true);
    });

    it('never compresses the notification stream: each event arrives as it is written', async () => {
      const { headers, text } = await firstEvent(`${base[mode]}/api/notifications/stream?ticket=t`, { 'accept-encoding': BROWSER, accept: 'text/event-stream' });
      expect(headers['content-type']).toContain('text/event-stream');
      expect(headers['content-encoding']).toBeUndefined();
      expect(text).toMatch(/^data: \{"unread":3,/);
    });
  });
});
