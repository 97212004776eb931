import { defineEvent } from './event-definition';

/** One comment is gone (a deleted top-level comment takes its replies: one event each). */
export interface CommentDeletedPayload {
  id: number;
  post_id: number;
  post_author_id: number;
  author_id: number;
  parent_id: number | null;
  like_count: number;
  /** The note's comment count after the change (absent from events written before it was added). */
  post_comment_count?: number;
}

export const commentDeleted = defineEvent<CommentDeletedPayload>({ type: 'comment.deleted', version: 1, topic: 'shiliu.comment', key: (p) => String(p.id) });
