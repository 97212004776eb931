import { defineEvent } from './event-definition';
import type { FollowChangePayload } from './follow-change';

export const userUnfollowed = defineEvent<FollowChangePayload>({ type: 'user.unfollowed', version: 1, topic: 'shiliu.follow', key: (p) => String(p.following_id) });
