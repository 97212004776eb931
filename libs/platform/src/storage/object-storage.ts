import type { Readable } from 'node:stream';

export interface ObjectInfo {
  size: number;
  contentType: string;
}

/** An inclusive byte range, as HTTP Range requests name them. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where uploaded and generated files live: a local directory in embedded mode, MinIO (any S3 API) in
 * distributed mode. Keys are relative paths of letters, digits, `/`, `_`, `-` and `.`.
 */
export interface ObjectStorage {
  put(key: string, body: Buffer | Readable, contentType: string): Promise<void>;
  stat(key: string): Promise<ObjectInfo | null>;
  read(key: string, range?: ByteRange): Promise<Readable>;
  /**
   * Where a program outside this process (ffmpeg) can read the object in place, taking only the parts it needs:
   * a pre-signed GET URL valid for `validSeconds` (MinIO), or the file's absolute path (a directory).
   */
  readLocation(key: string, validSeconds: number): Promise<string>;
  remove(key: string): Promise<void>;
}

export const FILES_URL_PREFIX = '/api/files/';

/** The URL the API hands out for an object; the media service serves it. */
export function fileUrl(key: string): string {
  return FILES_URL_PREFIX + key;
}

/**
 * The object key behind a URL our object store handed out (`/api/files/<key>`, also accepted with any origin in
 * front, which is dropped), or null for anything else. Query strings and fragments are refused, so the URL we
 * store and serve back is always exactly `fileUrl(key)`.
 */
export function objectKeyOf(url: unknown): string | null {
  if (typeof url !== 'string' || url.length > 600) return null;
  let path = url.trim();
  const absolute = /^https?:\/\/[^/?#]+(\/.*)$/i.exec(path);
  if (absolute) path = absolute[1];
  if (!path.startsWith(FILES_URL_PREFIX)) return null;
  const key = path.slice(FILES_URL_PREFIX.length);
  return isValidObjectKey(key) ? key : null;
}

export function isValidObjectKey(key: string): boolean {
  return /^[A-Za-z0-9_-][A-Za-z0-9/_.-]{0,500}$/.test(key) && !key.split('/').some((part) => part === '..' || part === '.' || part === '');
}

export function assertValidObjectKey(key: string): void {
  if (!isValidObjectKey(key)) throw new Error(`Invalid object key "${key}"`);
}
