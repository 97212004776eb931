import { defineEvent } from './event-definition';
import type { PostReactionPayload } from './post-reaction';

export const postLiked = defineEvent<PostReactionPayload>({ type: 'post.liked', version: 1, topic: 'shiliu.reaction', key: (p) => String(p.post_id) });
