import type { PostDocument, PostHits, PostQuery, SearchEngine, Suggestion, UserDocument, UserHits } from './search-engine';
import { REFRESH_MS } from './elasticsearch.engine';

interface Entry {
  askedAt: number;
  answer: Promise<unknown>;
  /** The answer has come (and was not a failure). */
  settled: boolean;
  /** A question is out to replace it. */
  refreshing: boolean;
}

/** How long after a change's notice Elasticsearch may still answer without it: its refresh interval and a margin. */
export const CHANGE_SHOWS_MS = REFRESH_MS + 500;

/**
 * Answers of the engine kept and shared by everyone asking the same question: 20 people searching 野餐 at once cost
 * one query, not twenty, and a popular word costs one query per window rather than one per search. Identical
 * questions asked while the first is still out share its answer (a failure is shared too, and never kept). The
 * answers kept are the engine's (ids, totals, tag counts): the cards and each viewer's liked, collected and follow
 * state are read afresh (SearchService).
 *
 * How long an answer is kept depends on what changed since it was asked. Every change to what a note or user is
 * found by (publishing, an edit, a deletion, a re-index) is announced to every replica (IndexChanges), and
 * Elasticsearch shows it at its next refresh: an answer asked before a change shows is kept only `settlingMs`,
 * which adds little to the second a write already waits; one asked after it, while nothing else changed, is kept
 * `quietMs`. Counts that only reorder answers (likes, fans) are not announced: a kept answer keeps its order for
 * its window. While announcements cannot be heard, every answer is kept only `settlingMs`.
 *
 * For one more window after its own, an answer is still given while a single question replaces it in the
 * background: under load the people searching a popular word never wait on the cluster (its slowest answers were
 * the searches' p99), and no answer given is older than two windows.
 */
export class CachedSearchEngine implements SearchEngine {
  private readonly entries = new Map<string, Entry>();

  /** Answers asked before this moment may lack a change: kept `settlingMs` only. Until announcements are heard, always. */
  private trustedFrom = Number.POSITIVE_INFINITY;

  constructor(
    private readonly engine: SearchEngine,
    private readonly windows: { quietMs: number; settlingMs: number },
    private readonly maxEntries = 2000,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** A change was announced just now (or announcements are heard again, after any number were missed). */
  changed(): void {
    this.trustedFrom = this.now() + CHANGE_SHOWS_MS;
  }

  /** Announcements cannot be heard: any change may be missed. */
  unsure(): void {
    this.trustedFrom = Number.POSITIVE_INFINITY;
  }

  indexPost(document: PostDocument): Promise<void> {
    return this.engine.indexPost(document);
  }

  removePost(id: number, seq: number): Promise<void> {
    return this.engine.removePost(id, seq);
  }

  indexUser(document: UserDocument): Promise<void> {
    return this.engine.indexUser(document);
  }

  removeUser(id: number, seq: number): Promise<void> {
    return this.engine.removeUser(id, seq);
  }

  searchPosts(query: PostQuery): Promise<PostHits> {
    return this.kept(`p\u0000${query.kind}\u0000${query.tag ?? ''}\u0000${query.offset}\u0000${query.limit}\u0000${query.terms.join('\u0000')}`, () =>
      this.engine.searchPosts(query),
    );
  }

  searchUsers(keyword: string, offset: number, limit: number): Promise<UserHits> {
    return this.kept(`u\u0000${offset}\u0000${limit}\u0000${keyword}`, () => this.engine.searchUsers(keyword, offset, limit));
  }

  suggest(prefix: string, limit: number): Promise<Suggestion[]> {
    return this.kept(`s\u0000${limit}\u0000${prefix}`, () => this.engine.suggest(prefix, limit));
  }

  async close(): Promise<void> {
    await this.engine.close?.();
  }

  private kept<T>(key: string, ask: () => Promise<T>): Promise<T> {
    const now = this.now();
    const entry = this.entries.get(key);
    if (entry) {
      const window = entry.askedAt >= this.trustedFrom ? this.windows.quietMs : this.windows.settlingMs;
      if (entry.askedAt + window > now) return entry.answer as Promise<T>;
      if (entry.settled && entry.askedAt + 2 * window > now) {
        if (!entry.refreshing) this.refresh(key, entry, ask);
        return entry.answer as Promise<T>;
      }
      this.entries.delete(key);
    }
    return this.keep(key, ask(), now);
  }

  /** Asks again for a settled answer past its window, which stays in place until the new one has come. */
  private refresh<T>(key: string, stale: Entry, ask: () => Promise<T>): void {
    stale.refreshing = true;
    const askedAt = this.now();
    void ask().then(
      (value) => {
        if (this.entries.get(key) === stale) void this.keep(key, Promise.resolve(value), askedAt);
      },
      () => (stale.refreshing = false),
    );
  }

  private keep<T>(key: string, answer: Promise<T>, askedAt: number): Promise<T> {
    const fresh: Entry = { askedAt, answer, settled: false, refreshing: false };
    this.entries.delete(key);
    this.entries.set(key, fresh);
    void answer.then(
      () => (fresh.settled = true),
      () => {
        if (this.entries.get(key) === fresh) this.entries.delete(key);
      },
    );
    // Oldest first in a Map's order: past the bound, the entries made longest ago go.
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    return answer;
  }
}
