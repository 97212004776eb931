import { defineEvent } from './event-definition';
import type { PostSnapshot } from './post-snapshot';

/**
 * A draft was saved (created or edited). Only the media service listens: the images and video a draft uses
 * must not be swept away as unused uploads while the draft waits to be published.
 */
export interface PostDraftSavedPayload {
  post: PostSnapshot;
}

export const postDraftSaved = defineEvent<PostDraftSavedPayload>({ type: 'post.draft.saved', version: 1, topic: 'shiliu.post', key: (p) => String(p.post.id) });
