import { fileUrl, objectKeyOf } from '@shiliu/platform';

export { objectKeyOf };

/** The canonical URL of one of our objects, or null when the URL is not one. */
export function ownObjectUrl(url: unknown): string | null {
  const key = objectKeyOf(url);
  return key === null ? null : fileUrl(key);
}
