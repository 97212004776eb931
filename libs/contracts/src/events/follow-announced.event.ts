import { defineEvent } from './event-definition';
import type { FollowChangePayload } from './follow-change';

/**
 * A follow as it is now, re-announced by social when a read model asks for a backfill (search keeps each viewer's
 * follow state). Keyed by the followed user, as `user.followed` is, so it stays in order with the follow's undoing.
 */
export const followAnnounced = defineEvent<FollowChangePayload>({ type: 'follow.announced', version: 1, topic: 'shiliu.follow', key: (p) => String(p.following_id) });
