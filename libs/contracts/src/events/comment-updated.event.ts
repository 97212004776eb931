import type { CommentSnapshot } from './comment-created.event';
import { defineEvent } from './event-definition';

/**
 * A comment's text or images changed (an administrator's edit in the back office; students cannot edit a
 * comment). The snapshot is the comment as it now is; it travels on the comment's own topic and key, after its
 * comment.created.
 */
export interface CommentUpdatedPayload {
  comment: CommentSnapshot;
}

export const commentUpdated = defineEvent<CommentUpdatedPayload>({ type: 'comment.updated', version: 1, topic: 'shiliu.comment', key: (p) => String(p.comment.id) });
