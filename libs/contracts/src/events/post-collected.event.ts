import { defineEvent } from './event-definition';
import type { PostReactionPayload } from './post-reaction';

export const postCollected = defineEvent<PostReactionPayload>({ type: 'post.collected', version: 1, topic: 'shiliu.reaction', key: (p) => String(p.post_id) });
