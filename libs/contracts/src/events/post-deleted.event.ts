import { defineEvent } from './event-definition';

/**
 * A note or draft is gone, with its comments, likes and collections. The counts it had let counters elsewhere
 * drop by what the note carried; the media URLs let the media service remove objects nothing uses any more.
 */
export interface PostDeletedPayload {
  id: number;
  author_id: number;
  was_draft: boolean;
  like_count: number;
  collect_count: number;
  comment_count: number;
  images: string[];
  video_url: string | null;
  cover_url: string | null;
}

export const postDeleted = defineEvent<PostDeletedPayload>({ type: 'post.deleted', version: 1, topic: 'shiliu.post', key: (p) => String(p.id) });
