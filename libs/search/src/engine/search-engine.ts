/** A note as the engine indexes it: what is matched, filtered and sorted on. `seq` orders its versions. */
export interface PostDocument {
  id: number;
  title: string;
  content: string;
  tags: string[];
  type: 1 | 2;
  like_count: number;
  created_at: string;
  seq: number;
}

export interface UserDocument {
  id: number;
  user_id: string;
  nickname: string;
  fans_count: number;
  seq: number;
}

export type PostKind = 'all' | 'posts' | 'videos';

export interface PostQuery {
  /** Words that must each appear in a title, a text or as a tag; empty with a tag alone. */
  terms: string[];
  tag: string | null;
  kind: PostKind;
  offset: number;
  limit: number;
}

export interface PostHits {
  ids: number[];
  total: number;
  /** The tags of every matching note, most used first (at most 10). */
  tagStats: { tag: string; count: number }[];
}

export interface UserHits {
  ids: number[];
  total: number;
}

export type SuggestionKind = 'tag' | 'user' | 'post';

export interface Suggestion {
  kind: SuggestionKind;
  text: string;
  /** The note's id or the user's product ID; absent for a tag. */
  target?: string;
}

/**
 * Where notes and users are matched: Elasticsearch in distributed mode, this service's own PostgreSQL tables in
 * embedded mode. Both rank alike: a title match weighs 3, a text match 1, a tag 5 (each word counted once per
 * field), then more likes, then newer, then the larger id; a user's product ID 5, the nickname 3, then more fans.
 */
export interface SearchEngine {
  indexPost(document: PostDocument): Promise<void>;
  removePost(id: number, seq: number): Promise<void>;
  indexUser(document: UserDocument): Promise<void>;
  removeUser(id: number, seq: number): Promise<void>;
  searchPosts(query: PostQuery): Promise<PostHits>;
  searchUsers(keyword: string, offset: number, limit: number): Promise<UserHits>;
  /** Up to `limit` completions of what the user is typing. */
  suggest(prefix: string, limit: number): Promise<Suggestion[]>;
  /** Lets go of connections, where the engine holds any of its own. */
  close?(): Promise<void>;
}

export const SEARCH_ENGINE = Symbol('SEARCH_ENGINE');

/** Weights shared by both engines, so they give the same order. */
export const WEIGHTS = { title: 3, content: 1, tag: 5, userId: 5, nickname: 3 } as const;

/** Elasticsearch cannot page past this (index.max_result_window); PostgreSQL is held to it too, so both agree. */
export const MAX_RESULT_WINDOW = 10_000;

/**
 * The engine cannot be reached: search answers 503 meanwhile, and an event handler's failure counts as
 * transient (`retriable`), so the consumer retries until it returns.
 */
export class SearchUnavailableError extends Error {
  readonly retriable = true;
  constructor(cause: unknown) {
    super('search engine unavailable', { cause });
    this.name = 'SearchUnavailableError';
  }
}

/**
 * The header panel's completions, the same from both engines: a few tags and nicknames first (short and likely what
 * is meant), then note titles, then more tags and nicknames if titles leave room; no text twice.
 */
export function mergeSuggestions(tags: string[], users: { nickname: string; user_id: string }[], titles: { id: string; title: string }[], limit: number): Suggestion[] {
  const tagItems: Suggestion[] = tags.map((tag) => ({ kind: 'tag', text: tag }));
  const userItems: Suggestion[] = users.map((user) => ({ kind: 'user', text: user.nickname, target: user.user_id }));
  const titleItems: Suggestion[] = titles.map((post) => ({ kind: 'post', text: post.title, target: post.id }));
  const ordered = [...tagItems.slice(0, 4), ...userItems.slice(0, 3), ...titleItems, ...tagItems.slice(4), ...userItems.slice(3)];
  const seen = new Set<string>();
  const merged: Suggestion[] = [];
  for (const item of ordered) {
    const key = `${item.kind}:${item.text}`;
    if (seen.has(key)) continue;
    seen.add(key);
    merged.push(item);
    if (merged.length === limit) break;
  }
  return merged;
}
