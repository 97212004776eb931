import { objectKeyOf } from '@shiliu/platform';

/** The object keys of the URLs that name stored objects. */
export function keysOf(urls: (string | null)[]): string[] {
  return urls.map(objectKeyOf).filter((key): key is string => key !== null);
}

/** Who uses an object (upload_uses): a note, one of its comments (under the note, so the note's deletion ends it too), an avatar. */
export const noteHolder = (postId: number) => `post:${postId}`;
export const commentHolder = (postId: number, commentId: number) => `${noteHolder(postId)}/comment:${commentId}`;
export const avatarHolder = (userId: number) => `avatar:${userId}`;
