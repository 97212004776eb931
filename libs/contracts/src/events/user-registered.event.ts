import { defineEvent } from './event-definition';
import type { UserProfileSnapshot } from './user-profile-snapshot';

export interface UserRegisteredPayload {
  user: UserProfileSnapshot;
}

export const userRegistered = defineEvent<UserRegisteredPayload>({ type: 'user.registered', version: 1, topic: 'shiliu.user', key: (p) => String(p.user.id) });
