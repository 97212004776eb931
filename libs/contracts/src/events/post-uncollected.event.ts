import { defineEvent } from './event-definition';
import type { PostReactionPayload } from './post-reaction';

export const postUncollected = defineEvent<PostReactionPayload>({ type: 'post.uncollected', version: 1, topic: 'shiliu.reaction', key: (p) => String(p.post_id) });
