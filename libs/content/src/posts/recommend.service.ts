import { Injectable } from '@nestjs/common';
import { MemoryTtlStore } from '@shiliu/platform';
import { ReadCache } from '../shared/read-cache';
import { type Candidate, interestsOf, personalRanking, topCategoriesOf } from './affinity';
import { type Actions, RecommendRepository, type Source } from './recommend.repository';

/** How many of the most engaging notes every viewer's candidates start from. */
const ENGAGING_CANDIDATES = 300;
/** How many of the best notes of each of the viewer's top categories join them. */
const PER_CATEGORY = 80;
/** The viewer's strongest authors (liked, collected, commented on or followed) whose newest notes join them, and how many each. */
const AUTHORS = 20;
const PER_AUTHOR = 5;
/**
 * How long a viewer's interests are kept before they are read again from their rows: the bound on how soon a new
 * like moves their next first page.
 */
const PROFILE_SECONDS = 30;
/** Profiles kept per process (a few KB for most, up to about 100 KB), so a flood of viewers cannot grow memory. */
const PROFILES_IN_MEMORY = 2000;

/** The personalised 推荐 (libs/content/README.md): the viewer's ranking, drawn from a candidate set and scored. */
@Injectable()
export class RecommendService {
  private readonly profiles = new MemoryTtlStore(PROFILES_IN_MEMORY);

  constructor(private readonly repository: RecommendRepository, private readonly cache: ReadCache) {}

  /** The viewer's first `depth` notes and how many their feed holds in all. */
  async ranking(viewerId: string, depth: number): Promise<{ ids: number[]; total: number }> {
    const actions = await this.actionsOf(viewerId);
    const interests = interestsOf(actions.interests);
    const categories = [...topCategoriesOf(interests)];
    const authors = [...interests.authors].sort((a, b) => b[1] - a[1]).slice(0, AUTHORS).map(([id]) => id);
    const [engaging, ofInterests, total] = await Promise.all([
      this.cache.through(this.cache.candidates, 'm', 'top', () => this.repository.mostEngaging(ENGAGING_CANDIDATES)),
      this.fromSources(categories, authors),
      this.totalOf(actions),
    ]);
    const candidates = new Map<number, Candidate>();
    for (const note of [...(engaging ?? []), ...ofInterests]) candidates.set(note.id, note);
    return { ids: personalRanking(viewerId, interests, new Set(actions.acted), [...candidates.values()], depth), total };
  }

  /** How many notes the viewer's feed holds: every published note but their own. */
  async total(viewerId: string): Promise<number> {
    return this.totalOf(await this.actionsOf(viewerId));
  }

  private async totalOf(actions: Actions): Promise<number> {
    const published = await this.cache.through(this.cache.published, 'f', 'f', () => this.repository.published());
    return (published ?? 0) - actions.own;
  }

  /** The candidates of the viewer's categories and authors: kept per source for every viewer, the rest read together. */
  private async fromSources(categories: number[], authors: string[]): Promise<Candidate[]> {
    const keyOf = (source: Source) => ('category' in source ? `c${source.category}` : `a${source.author}`);
    const kept: Candidate[] = [];
    const missing: Source[] = [];
    for (const source of [...categories.map((category) => ({ category })), ...authors.map((author) => ({ author }))]) {
      const hit = this.cache.live ? this.cache.candidates.get(keyOf(source)) : undefined;
      if (hit) kept.push(...hit);
      else missing.push(source);
    }
    if (missing.length === 0) return kept;
    const startedAt = this.cache.begin();
    const read = await this.repository.fromSources(
      missing.flatMap((source) => ('category' in source ? [source.category] : [])),
      PER_CATEGORY,
      missing.flatMap((source) => ('author' in source ? [source.author] : [])),
      PER_AUTHOR,
    );
    for (const { source, notes } of read) {
      if (this.cache.live) this.cache.candidates.set(startedAt, notes, 'm', keyOf(source));
      kept.push(...notes);
    }
    return kept;
  }

  /** What the viewer did, read from their own rows at most every `PROFILE_SECONDS`. */
  private async actionsOf(viewerId: string): Promise<Actions> {
    const kept = await this.profiles.get(viewerId);
    if (kept !== null) return JSON.parse(kept) as Actions;
    const actions = await this.repository.actions(viewerId);
    await this.profiles.set(viewerId, JSON.stringify(actions), PROFILE_SECONDS);
    return actions;
  }
}
