import { defineEvent } from './event-definition';
import type { CommentReactionPayload } from './post-reaction';

export const commentUnliked = defineEvent<CommentReactionPayload>({ type: 'comment.unliked', version: 1, topic: 'shiliu.reaction', key: (p) => String(p.comment_id) });
