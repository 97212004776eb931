/**
 * The query keys more than one feature reads or invalidates. A feature's own keys live in its `api/` folder and
 * start from these where they belong to the same family (every `people` key is invalidated after a follow).
 */
export const sharedKeys = {
  /** Every feed of notes (explore, a user's notes, collections, likes). */
  feeds: ['feed'] as const,
  /** A note's detail: the note feature reads it, and a like from any card writes into it. */
  note: ['note'] as const,
  /** Search results, whose notes a like from a card also changes. */
  search: ['search'] as const,
  /** Everything about users: profiles, cards, follow states and lists. */
  people: ['people'] as const,
  /** The channel list. */
  channels: ['channels'] as const,
  /** Everything of the notifications page. */
  notifications: ['notifications'] as const,
  /** Per-tab unread counts, shared by the badge and the notifications page's dots. */
  unread: ['notifications', 'unread'] as const,
};
