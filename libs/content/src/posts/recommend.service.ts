import { Injectable } from '@nestjs/common';
import { MemoryTtlStore } from '@shiliu/platform';
import { ReadCache } from '../shared/read-cache';
import { type Candidate, interestsOf, personalRanking, topCategoriesOf } from './affinity';
import { type InterestRow, RecommendRepository } from './recommend.repository';

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
/** Profiles kept per process (a few KB each), so a flood of viewers cannot grow memory. */
const PROFILES_IN_MEMORY = 5000;

interface Profile {
  rows: InterestRow[];
  total: number;
}

/** The personalised 推荐 (libs/content/README.md): the viewer's ranking, drawn from a candidate set and scored. */
@Injectable()
export class RecommendService {
  private readonly profiles = new MemoryTtlStore(PROFILES_IN_MEMORY);

  constructor(private readonly repository: RecommendRepository, private readonly cache: ReadCache) {}

  /** The viewer's first `depth` notes and how many their feed holds in all. */
  async ranking(viewerId: string, depth: number): Promise<{ ids: number[]; total: number }> {
    const profile = await this.profileOf(viewerId);
    const interests = interestsOf(profile.rows);
    const categories = [...topCategoriesOf(interests)];
    const authors = [...interests.authors].sort((a, b) => b[1] - a[1]).slice(0, AUTHORS).map(([id]) => id);
    const [engaging, ofInterests] = await Promise.all([
      this.cache.through(this.cache.engaging, 'm', 'm', () => this.repository.mostEngaging(ENGAGING_CANDIDATES)),
      categories.length + authors.length > 0 ? this.repository.ofInterests(categories, PER_CATEGORY, authors, PER_AUTHOR) : [],
    ]);
    const candidates = new Map<number, Candidate>();
    for (const note of [...(engaging ?? []), ...ofInterests]) candidates.set(note.id, note);
    return { ids: personalRanking(viewerId, interests, [...candidates.values()], depth), total: profile.total };
  }

  /** How many notes the viewer's feed holds, as of their profile. */
  async total(viewerId: string): Promise<number> {
    return (await this.profileOf(viewerId)).total;
  }

  /** The viewer's interest rows and feed size, read from their own rows at most every `PROFILE_SECONDS`. */
  private async profileOf(viewerId: string): Promise<Profile> {
    const kept = await this.profiles.get(viewerId);
    if (kept !== null) return JSON.parse(kept) as Profile;
    const [rows, total] = await Promise.all([this.repository.interests(viewerId), this.repository.total(viewerId)]);
    const profile: Profile = { rows, total };
    await this.profiles.set(viewerId, JSON.stringify(profile), PROFILE_SECONDS);
    return profile;
  }
}
