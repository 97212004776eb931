import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Transform } from 'node:stream';
import { constants, createBrotliCompress, createGzip } from 'node:zlib';

/** The encodings the gateway compresses with, best first. */
export type ContentEncoding = 'br' | 'gzip';

/** Answers smaller than this go out as they are: compressing them saves less than it costs. */
export const COMPRESS_MIN_BYTES = 1024;

/**
 * Types worth compressing: text, JSON, JavaScript, XML and SVG. Never an event stream (each event must reach the
 * browser as it is written) nor images, video, audio or archives (compressed already, and served with ranges).
 */
const COMPRESSIBLE = /^\s*(?:text\/(?!event-stream)|application\/(?:json|javascript|xml|[\w.-]+\+(?:json|xml))|image\/svg\+xml)/i;

/** The encodings of ours an `Accept-Encoding` header takes; one listed with `q=0` is refused. */
export function acceptedEncodings(header: string | string[] | undefined): Set<ContentEncoding> {
  const accepted = new Set<ContentEncoding>();
  if (typeof header !== 'string' || header === '') return accepted;
  for (const part of header.split(',')) {
    const [name, ...parameters] = part.split(';');
    const coding = name.trim().toLowerCase();
    if (coding !== 'br' && coding !== 'gzip') continue;
    const quality = parameters.map((parameter) => parameter.trim().toLowerCase()).find((parameter) => parameter.startsWith('q='));
    if (quality === undefined || Number(quality.slice(2)) > 0) accepted.add(coding);
  }
  return accepted;
}

/** The encoding to answer with for an `Accept-Encoding` header: br when the browser takes it, else gzip, else none. */
export function preferredEncoding(header: string | string[] | undefined): ContentEncoding | null {
  const accepted = acceptedEncodings(header);
  return accepted.has('br') ? 'br' : accepted.has('gzip') ? 'gzip' : null;
}

/** Adds `Accept-Encoding` to the answer's `Vary`, once. */
export function varyOnEncoding(res: ServerResponse): void {
  const vary = res.getHeader('vary');
  const current = Array.isArray(vary) ? vary.join(', ') : vary === undefined ? '' : String(vary);
  if (current === '') res.setHeader('Vary', 'Accept-Encoding');
  else if (!/(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(current)) res.setHeader('Vary', `${current}, Accept-Encoding`);
}

function compressor(encoding: ContentEncoding, length: number | undefined): Transform {
  if (encoding === 'gzip') return createGzip();
  // Quality 4 of 11: most of Brotli's gain over gzip on JSON for a fraction of its top quality's CPU.
  const params: Record<number, number> = { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT };
  if (length !== undefined) params[constants.BROTLI_PARAM_SIZE_HINT] = length;
  return createBrotliCompress({ params });
}

/** Sets the headers `writeHead` was handed, as Node would before writing them, so the decision below sees them. */
function setHeadersOf(res: ServerResponse, headers: OutgoingHttpHeaders | (string | string[])[] | undefined): void {
  if (headers === undefined || headers === null) return;
  if (Array.isArray(headers)) {
    if (headers.length > 0 && Array.isArray(headers[0])) {
      for (const [name, value] of headers as unknown as [string, string][]) res.appendHeader(name, value);
    } else {
      for (let n = 0; n + 1 < headers.length; n += 2) res.appendHeader(headers[n] as string, headers[n + 1]);
    }
    return;
  }
  for (const name of Object.keys(headers)) {
    const value = headers[name];
    if (value !== undefined) res.setHeader(name, value);
  }
}

type WriteCallback = (error?: Error | null) => void;

/**
 * Compresses this answer with `encoding` if it turns out worth it when its head is written: a compressible type, not
 * already encoded, not a part (206, `Content-Range`), not `no-transform`, and not known to be under `minBytes`. The
 * body is compressed as it is written (streamed, never held whole), with the answer's own backpressure: the same for a
 * service answering in this process (embedded) as for the proxy writing what a service sends (distributed).
 */
export function compressIfWorthIt(res: ServerResponse, encoding: ContentEncoding, minBytes = COMPRESS_MIN_BYTES): void {
  const writeHead = res.writeHead as (this: ServerResponse, ...args: unknown[]) => ServerResponse;
  const write = res.write as (this: ServerResponse, chunk: unknown, encoding?: unknown, callback?: unknown) => boolean;
  const end = res.end as (this: ServerResponse, chunk?: unknown, encoding?: unknown, callback?: unknown) => ServerResponse;
  /** The length of the body handed whole to `end` before the head was written. */
  let endLength: number | undefined;
  let zip: Transform | undefined;

  /** The body's length when known: declared, or handed whole to `end`. */
  const bodyLength = (): number | undefined => {
    const declared = res.getHeader('content-length');
    return declared !== undefined ? Number(declared) : endLength;
  };

  const worthIt = (): boolean => {
    const status = res.statusCode;
    if (status < 200 || status === 204 || status === 206 || status === 304) return false;
    const applied = res.getHeader('content-encoding');
    if (applied !== undefined && String(applied).toLowerCase() !== 'identity') return false;
    if (res.hasHeader('content-range')) return false;
    if (!COMPRESSIBLE.test(String(res.getHeader('content-type') ?? ''))) return false;
    if (/no-transform/i.test(String(res.getHeader('cache-control') ?? ''))) return false;
    const length = bodyLength();
    return length === undefined || !(length < minBytes);
  };

  const start = (): void => {
    const length = bodyLength();
    res.removeHeader('content-length');
    res.setHeader('Content-Encoding', encoding);
    const stream = compressor(encoding, length);
    zip = stream;
    stream.on('data', (chunk: Buffer) => {
      if (write.call(res, chunk) === false) stream.pause();
    });
    stream.once('end', () => end.call(res));
    stream.on('error', (error) => res.destroy(error));
    // The writer waits for the answer's 'drain' when a write says the compressor is full.
    stream.on('drain', () => res.emit('drain'));
    res.on('drain', () => {
      if (!res.writableNeedDrain) stream.resume();
    });
    res.once('close', () => stream.destroy());
  };

  res.writeHead = function (this: ServerResponse, statusCode: number, ...rest: unknown[]) {
    if (this.headersSent) return writeHead.call(this, statusCode, ...rest);
    const reason = typeof rest[0] === 'string' ? rest[0] : undefined;
    setHeadersOf(this, (reason === undefined ? rest[0] : rest[1]) as OutgoingHttpHeaders | undefined);
    this.statusCode = statusCode;
    const compressible = COMPRESSIBLE.test(String(this.getHeader('content-type') ?? ''));
    if (compressible) varyOnEncoding(this);
    if (worthIt()) start();
    return reason === undefined ? writeHead.call(this, statusCode) : writeHead.call(this, statusCode, reason);
  } as typeof res.writeHead;

  res.write = function (this: ServerResponse, chunk: unknown, encodingOrCallback?: BufferEncoding | WriteCallback, callback?: WriteCallback): boolean {
    if (!this.headersSent) this.writeHead(this.statusCode);
    if (!zip) return write.call(this, chunk, encodingOrCallback, callback);
    if (typeof encodingOrCallback === 'function') return zip.write(chunk, encodingOrCallback);
    return zip.write(chunk, encodingOrCallback ?? 'utf8', callback);
  } as typeof res.write;

  res.end = function (this: ServerResponse, chunk?: unknown, encodingOrCallback?: BufferEncoding | (() => void), callback?: () => void) {
    let body = chunk;
    let textEncoding = typeof encodingOrCallback === 'string' ? encodingOrCallback : undefined;
    let done = typeof encodingOrCallback === 'function' ? encodingOrCallback : callback;
    if (typeof body === 'function') {
      done = body as () => void;
      body = undefined;
      textEncoding = undefined;
    }
    if (!this.headersSent) {
      endLength = body === undefined || body === null ? 0 : typeof body === 'string' ? Buffer.byteLength(body, textEncoding) : (body as Uint8Array).byteLength;
      // Only a head that will be compressed is written here: otherwise Node writes it, with the length it now knows.
      if (worthIt()) this.writeHead(this.statusCode);
    }
    if (!zip) return end.call(this, body, textEncoding, done);
    if (done) this.once('finish', done);
    if (body === undefined || body === null) zip.end();
    else zip.end(body, textEncoding ?? 'utf8');
    return this;
  } as typeof res.end;
}

/**
 * The gateway's compression of its answers, run by its first middleware: only for a client that takes br or gzip,
 * and never for HEAD (which has no body to compress).
 */
export function compressAnswer(req: IncomingMessage, res: ServerResponse): void {
  if (req.method === 'HEAD') return;
  const encoding = preferredEncoding(req.headers['accept-encoding']);
  if (encoding) compressIfWorthIt(res, encoding);
}
