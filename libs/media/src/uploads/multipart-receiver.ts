import busboy from 'busboy';
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FORMAT_HEAD_BYTES } from './file-format';

/** One file of a multipart upload, written to a temporary file as it arrived. */
export interface ReceivedFile {
  field: string;
  originalName: string;
  path: string;
  /** Bytes received; when `overCap`, the bytes up to the cap. */
  size: number;
  /** Hex SHA-256 of the bytes: objects are named by their content. */
  sha256: string;
  head: Buffer;
  /** The file was larger than the receiver's cap; its rest was discarded. */
  overCap: boolean;
}

export interface ReceivedUpload {
  files: ReceivedFile[];
  /** More files came than the receiver takes; the extra ones were discarded. */
  tooManyFiles: boolean;
  /** Removes the temporary files. */
  dispose(): Promise<void>;
}

export interface ReceiveOptions {
  fields: readonly string[];
  maxFileBytes: number;
  maxFiles: number;
}

/** The body is not a multipart form the parser can read (no boundary, cut off, broken part headers): the client's fault. */
export class MalformedUploadError extends Error {
  constructor(cause: unknown) {
    super(`malformed multipart body: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

/** Hashes the bytes passing through and keeps the first few, for the format check. */
class Fingerprint extends Transform {
  readonly hash = createHash('sha256');
  size = 0;
  private headChunks: Buffer[] = [];
  private headLength = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.hash.update(chunk);
    this.size += chunk.length;
    if (this.headLength < FORMAT_HEAD_BYTES) {
      this.headChunks.push(chunk.subarray(0, FORMAT_HEAD_BYTES - this.headLength));
      this.headLength += Math.min(chunk.length, FORMAT_HEAD_BYTES - this.headLength);
    }
    callback(null, chunk);
  }

  get head(): Buffer {
    return Buffer.concat(this.headChunks);
  }
}

/**
 * Reads a multipart body straight to temporary files, so that a 100 MB video never sits in memory, and stops
 * writing a file at the cap. Fields other than the named ones are read past and dropped.
 */
export async function receiveMultipart(request: IncomingMessage, options: ReceiveOptions): Promise<ReceivedUpload> {
  const directory = await mkdtemp(join(tmpdir(), 'shiliu-upload-'));
  const dispose = () => rm(directory, { recursive: true, force: true });
  const files: ReceivedFile[] = [];
  let tooManyFiles = false;
  try {
    await new Promise<void>((resolve, reject) => {
      let parser: busboy.Busboy;
      try {
        parser = busboy({
          headers: request.headers,
          defParamCharset: 'utf8',
          limits: { fileSize: options.maxFileBytes, files: options.maxFiles, fields: 20, fieldSize: 64 * 1024 },
        });
      } catch (error) {
        reject(new MalformedUploadError(error));
        return;
      }
      const writes: Promise<void>[] = [];
      parser.on('file', (field, stream, info) => {
        if (!options.fields.includes(field)) {
          // A form cut off inside a part we skip errors that part's stream too; unheard, it would end the process.
          stream.on('error', () => undefined);
          stream.resume();
          return;
        }
        const path = join(directory, String(writes.length));
        const fingerprint = new Fingerprint();
        writes.push(
          pipeline(stream, fingerprint, createWriteStream(path)).then(() => {
            files.push({
              field,
              originalName: info.filename ?? '',
              path,
              size: fingerprint.size,
              sha256: fingerprint.hash.digest('hex'),
              head: fingerprint.head,
              overCap: stream.truncated === true,
            });
          }),
        );
      });
      parser.on('filesLimit', () => (tooManyFiles = true));
      parser.on('error', (error) => reject(new MalformedUploadError(error)));
      parser.on('close', () => Promise.all(writes).then(() => resolve(), reject));
      request.on('aborted', () => reject(new Error('upload aborted by the client')));
      request.pipe(parser);
    });
  } catch (error) {
    await dispose();
    throw error;
  }
  // Files finish in any order; keep the order in which the client sent them.
  files.sort((a, b) => Number(a.path.slice(directory.length + 1)) - Number(b.path.slice(directory.length + 1)));
  return { files, tooManyFiles, dispose };
}
