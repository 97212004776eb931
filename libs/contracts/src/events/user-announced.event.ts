import { defineEvent } from './event-definition';
import type { UserProfileSnapshot } from './user-profile-snapshot';

/**
 * A user as they are now, re-announced by auth when a read model asks for a backfill. Consumers upsert it, never
 * over newer state: it travels on the user's topic and key, in order with the user's other events.
 */
export interface UserAnnouncedPayload {
  user: UserProfileSnapshot;
}

export const userAnnounced = defineEvent<UserAnnouncedPayload>({ type: 'user.announced', version: 1, topic: 'shiliu.user', key: (p) => String(p.user.id) });
