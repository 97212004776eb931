import { defineEvent } from './event-definition';
import { alsoOnTopic } from './event-topics';

/**
 * A user was mentioned with `[@nickname:user_id]`: in a note when it is published (on edit, only the newly added
 * mentions), in a comment when it is created. It travels on the topic of the note or comment it came from.
 */
export interface UserMentionedPayload {
  source: 'post' | 'comment';
  post_id: number;
  comment_id: number | null;
  /** Numeric id of the mentioned user. */
  mentioned_user_id: number;
  /** Numeric id of the user who wrote the mention. */
  author_id: number;
}

/** A mention in a note: topic shiliu.post, keyed by the note. */
export const userMentioned = defineEvent<UserMentionedPayload>({ type: 'user.mentioned', version: 1, topic: 'shiliu.post', key: (p) => String(p.post_id) });

/** A mention in a comment: the same event type on topic shiliu.comment, keyed by the comment. */
export const userMentionedInComment = alsoOnTopic(userMentioned, 'shiliu.comment', (p) => String(p.comment_id ?? p.post_id));
