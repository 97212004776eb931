import { defineEvent } from './event-definition';
import type { FollowChangePayload } from './follow-change';

/** Keyed by the followed user, so that a follow and its undoing stay in order for whoever is notified. */
export const userFollowed = defineEvent<FollowChangePayload>({ type: 'user.followed', version: 1, topic: 'shiliu.follow', key: (p) => String(p.following_id) });
