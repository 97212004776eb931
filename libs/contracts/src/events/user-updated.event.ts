import { defineEvent } from './event-definition';
import type { UserProfileSnapshot } from './user-profile-snapshot';

export interface UserUpdatedPayload {
  user: UserProfileSnapshot;
}

export const userUpdated = defineEvent<UserUpdatedPayload>({ type: 'user.updated', version: 1, topic: 'shiliu.user', key: (p) => String(p.user.id) });
