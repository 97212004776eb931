import { defineEvent } from './event-definition';
import type { PostSnapshot } from './post-snapshot';

/** A note became public: created as a note, or a draft published. Drafts never cause it. */
export interface PostPublishedPayload {
  post: PostSnapshot;
}

export const postPublished = defineEvent<PostPublishedPayload>({ type: 'post.published', version: 1, topic: 'shiliu.post', key: (p) => String(p.post.id) });
