import { defineEvent } from './event-definition';
import type { PostReactionPayload } from './post-reaction';

export const postUnliked = defineEvent<PostReactionPayload>({ type: 'post.unliked', version: 1, topic: 'shiliu.reaction', key: (p) => String(p.post_id) });
