import { defineEvent } from './event-definition';
import type { PostSnapshot } from './post-snapshot';

/** A published note was edited by its author; the snapshot is the note as it is now. */
export interface PostUpdatedPayload {
  post: PostSnapshot;
}

export const postUpdated = defineEvent<PostUpdatedPayload>({ type: 'post.updated', version: 1, topic: 'shiliu.post', key: (p) => String(p.post.id) });
