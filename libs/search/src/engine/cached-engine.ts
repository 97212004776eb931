import type { PostDocument, PostHits, PostQuery, SearchEngine, Suggestion, UserDocument, UserHits } from './search-engine';

interface Entry {
  expires: number;
  answer: Promise<unknown>;
  /** The answer has come (and was not a failure). */
  settled: boolean;
  /** A question is out to replace it. */
  refreshing: boolean;
}

/**
 * Elasticsearch shows a write only at its next refresh (every second), so an answer is already up to a second old
 * when it is given. Keeping each answer for a fraction of that adds little to that age, and at the rate a popular
 * word is searched (or a prefix typed by many) it spares the cluster almost every repetition: 20 people searching
 * 野餐 at once cost one query, not twenty. Identical questions asked while the first is still out share its answer
 * (a failure is shared too, and never kept). The answers kept are the engine's (ids, totals, tag counts): each
 * viewer's liked, collected and follow state is read afresh for every request.
 *
 * For one more window after its own, an answer is still given while a single question replaces it in the
 * background: under load the people searching a popular word never wait on the cluster (its slowest answers were
 * the searches' p99), and no answer given is older than two windows.
 */
export class CachedSearchEngine implements SearchEngine {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly engine: SearchEngine,
    private readonly keepMs: number,
    private readonly maxEntries = 2000,
    private readonly now: () => number = () => Date.now(),
  ) {}

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
    if (entry && entry.expires > now) return entry.answer as Promise<T>;
    if (entry?.settled && entry.expires + this.keepMs > now) {
      if (!entry.refreshing) this.refresh(key, entry, ask);
      return entry.answer as Promise<T>;
    }
    if (entry) this.entries.delete(key);
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
    const fresh: Entry = { expires: askedAt + this.keepMs, answer, settled: false, refreshing: false };
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
