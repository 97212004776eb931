import { FILES_URL_PREFIX, fileUrl, isValidObjectKey } from '@shiliu/platform';

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

/** The canonical URL of one of our objects, or null when the URL is not one. */
export function ownObjectUrl(url: unknown): string | null {
  const key = objectKeyOf(url);
  return key === null ? null : fileUrl(key);
}
