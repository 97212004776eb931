import { defineEvent } from './event-definition';

/**
 * A comment on a note, or a reply. Replies sit under one top-level comment (`parent_id`); `reply_to_comment_id`
 * and `reply_to_user_id` name the comment and user answered, which is the parent or another reply under it.
 */
export interface CommentSnapshot {
  id: number;
  post_id: number;
  post_author_id: number;
  author_id: number;
  parent_id: number | null;
  reply_to_comment_id: number | null;
  reply_to_user_id: number | null;
  /** The comment as plain text (markup removed). */
  content_text: string;
  images: string[];
  created_at: string;
}

export interface CommentCreatedPayload {
  comment: CommentSnapshot;
  /** The note's comment count after the change (absent from events written before it was added). */
  post_comment_count?: number;
}

export const commentCreated = defineEvent<CommentCreatedPayload>({ type: 'comment.created', version: 1, topic: 'shiliu.comment', key: (p) => String(p.comment.id) });
