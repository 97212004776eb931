import { defineEvent } from './event-definition';
import type { PostSnapshot } from './post-snapshot';

/**
 * A published note as it is now, re-announced by content when a read model asks for a backfill. Consumers upsert
 * it, never over newer state: it travels on the note's topic and key, in order with the note's other events.
 */
export interface PostAnnouncedPayload {
  post: PostSnapshot;
  /** The note's counts as it is announced, so a rebuilt read model (social's counters) starts from them. */
  like_count: number;
  collect_count: number;
  /** Absent from announcements written before it was added. */
  comment_count?: number;
  /** Who likes and who collects the note as it is announced (numeric ids), so a rebuilt read model (search's viewer state) knows them; absent from earlier announcements. */
  liked_by?: number[];
  collected_by?: number[];
}

export const postAnnounced = defineEvent<PostAnnouncedPayload>({ type: 'post.announced', version: 1, topic: 'shiliu.post', key: (p) => String(p.post.id) });
