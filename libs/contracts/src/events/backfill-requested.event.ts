import { defineEvent } from './event-definition';

/**
 * The entities whose owners re-announce them on request: users (auth), published notes (content), follows (social),
 * the banned-word list (auth).
 */
export type AnnouncedEntity = 'user' | 'post' | 'follow' | 'banned-words';
export const announcedEntities: readonly AnnouncedEntity[] = ['user', 'post', 'follow', 'banned-words'];

/**
 * A read model needs the current state of every entity it follows (it is new, or was rebuilt): each owner answers
 * by re-announcing them (`user.announced`, `post.announced`, `follow.announced`, `banned-words.changed`) through its outbox.
 */
export interface BackfillRequestedPayload {
  /** The service that asked. */
  consumer: string;
  entities: AnnouncedEntity[];
}

export const backfillRequested = defineEvent<BackfillRequestedPayload>({
  type: 'backfill.requested',
  version: 1,
  topic: 'shiliu.backfill',
  key: (p) => p.consumer,
});
