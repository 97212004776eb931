import { defineEvent } from './event-definition';

/**
 * The administrators' banned-word list as it now stands (auth owns it): every service that accepts students' text
 * keeps a copy and refuses text holding one of the words. It carries the whole list, so the latest version is all
 * a copy needs, and re-announcing the list on a backfill request is this same event.
 */
export interface BannedWordsChangedPayload {
  /** Grows with every change; a copy never replaces a list with an older one. */
  version: number;
  words: string[];
}

export const bannedWordsChanged = defineEvent<BannedWordsChangedPayload>({
  type: 'banned-words.changed',
  version: 1,
  topic: 'shiliu.banned-words',
  key: () => 'banned-words',
});
