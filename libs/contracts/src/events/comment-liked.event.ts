import { defineEvent } from './event-definition';
import type { CommentReactionPayload } from './post-reaction';

export const commentLiked = defineEvent<CommentReactionPayload>({ type: 'comment.liked', version: 1, topic: 'shiliu.reaction', key: (p) => String(p.comment_id) });
