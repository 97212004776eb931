import { parse as parseQueryString } from 'node:querystring';
import type { Readable, Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { BadRequestException, HttpException, PayloadTooLargeException } from '@nestjs/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { JSON_BODY_LIMIT_BYTES } from './input-guard';
import { messageForStatus } from './messages';

const decoders: Record<string, () => Transform> = { gzip: createGunzip, 'x-gzip': createGunzip, deflate: createInflate, br: createBrotliDecompress };

/** The answer to a body that is not JSON. */
const BODY_NOT_JSON = '请求体不是有效的JSON';
/** Fields a form may carry, as express's body parser allowed: more is refused rather than cut off unseen. */
const FORM_FIELDS_LIMIT = 1000;

/** Bodies are read as UTF-8; one that says it is written in another charset is refused rather than misread. */
function refuseOtherCharsets(request: FastifyRequest): void {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(request.headers['content-type'] ?? '')?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') throw new HttpException('不支持的字符编码', 415);
}

/** How many fields a form body holds: one more than its separators. */
function fieldsOf(form: string): number {
  let count = 1;
  for (let at = form.indexOf('&'); at !== -1; at = form.indexOf('&', at + 1)) count++;
  return count;
}

/**
 * A request's body as text: decompressed when it was sent compressed (browsers and HTTP libraries may), held to
 * the one limit after decompression, refused with the spec's words when it cannot be read. The one place a service
 * reads a body other than an upload.
 */
async function readBody(request: FastifyRequest, payload: Readable): Promise<string> {
  const encoding = request.headers['content-encoding']?.trim().toLowerCase();
  let source: Readable = payload;
  if (encoding && encoding !== 'identity') {
    const decoder = decoders[encoding];
    if (!decoder) throw new HttpException('不支持的请求编码', 415);
    const decoded = decoder();
    payload.on('error', (error) => decoded.destroy(error));
    source = payload.pipe(decoded);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > JSON_BODY_LIMIT_BYTES) throw new PayloadTooLargeException(messageForStatus(413));
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof HttpException) throw error;
    // zlib names a flaw in the data (Z_DATA_ERROR, Z_BUF_ERROR, brotli's ERR_…); anything else is a call cut off.
    if (source !== payload && /^(Z_|ERR_)/.test(String((error as { code?: unknown }).code))) throw new BadRequestException('请求体压缩数据已损坏，无法解压');
    throw new BadRequestException('请求未完整发送');
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * How a service reads request bodies: JSON (an empty body is no body), forms, multipart left unread for the upload
 * handler to stream, and anything else ignored, so that its route answers as if no body came.
 */
export function installBodyParsing(fastify: FastifyInstance): void {
  fastify.removeAllContentTypeParsers();
  const json = fastify.getDefaultJsonParser('error', 'error');
  fastify.addContentTypeParser('application/json', async (request: FastifyRequest, payload: Readable) => {
    refuseOtherCharsets(request);
    const text = await readBody(request, payload);
    if (text.trim() === '') return undefined;
    return new Promise((resolve, reject) => json(request, text, (error, body) => (error ? reject(new BadRequestException(BODY_NOT_JSON)) : resolve(body))));
  });
  fastify.addContentTypeParser('application/x-www-form-urlencoded', async (request: FastifyRequest, payload: Readable) => {
    refuseOtherCharsets(request);
    const text = await readBody(request, payload);
    if (fieldsOf(text) > FORM_FIELDS_LIMIT) throw new PayloadTooLargeException('请求参数过多');
    return { ...parseQueryString(text, undefined, undefined, { maxKeys: FORM_FIELDS_LIMIT }) };
  });
  fastify.addContentTypeParser('multipart/form-data', (_request, _payload, done) => done(null, undefined));
  fastify.addContentTypeParser('*', async (request: FastifyRequest, payload: Readable) => {
    await readBody(request, payload);
    return undefined;
  });
}
