/**
 * The personalised 推荐 (libs/content/README.md, "The personalised 推荐"): a note's engagement-and-freshness score
 * (`hot_score`) plus a bonus for how close it is to what the viewer liked, collected, commented on and follows.
 */

/** What a viewer's own actions weigh, summed per category, tag and author of the notes they acted on. */
export const ACTION_WEIGHTS = { like: 1, collect: 2, comment: 2, follow: 3 } as const;
/**
 * How much `hot_score` a perfect match is worth: one unit is a week of freshness or e-fold engagement, so a note of
 * the viewer's favourite category, tag and author ranks as a note three weeks newer would.
 */
export const AFFINITY_WEIGHT = 3;
/** The share of the match that comes from the category, the best tag (finer than a category, so as much) and the author. */
const PARTS = { category: 0.4, tag: 0.4, author: 0.2 } as const;
/** The viewer's interests are their strongest categories, at most this many; notes outside them are exploration. */
export const TOP_CATEGORIES = 3;
/** One slot in every this many goes to the best note outside the viewer's interests: 20 % of a page. */
export const EXPLORE_EVERY = 5;

/**
 * A viewer's interests: their summed weights per category, tag and author, each divided by the largest of its kind
 * (`interestsOf`), so the favourite of each kind is 1.
 */
export interface Interests {
  categories: Map<number, number>;
  tags: Map<number, number>;
  authors: Map<string, number>;
}

/** A note that may be recommended, with what its score needs. */
export interface Candidate {
  id: number;
  authorId: string;
  categoryId: number | null;
  tagIds: number[];
  hotScore: number;
}

/** Interests from summed weights (rows of kind, key and weight as the profile query answers them). */
export function interestsOf(rows: { kind: 'category' | 'tag' | 'author'; key: string; weight: number }[]): Interests {
  const sums = { category: new Map<string, number>(), tag: new Map<string, number>(), author: new Map<string, number>() };
  for (const row of rows) sums[row.kind].set(row.key, (sums[row.kind].get(row.key) ?? 0) + row.weight);
  const relative = (weights: Map<string, number>) => {
    const largest = Math.max(...weights.values());
    return new Map([...weights].map(([key, weight]) => [key, weight / largest]));
  };
  const numeric = (weights: Map<string, number>) => new Map([...relative(weights)].map(([key, weight]) => [Number(key), weight]));
  return { categories: numeric(sums.category), tags: numeric(sums.tag), authors: relative(sums.author) };
}

/** How well a note matches the viewer's interests, 0 to 1. */
export function affinityOf(interests: Interests, note: Candidate): number {
  const category = note.categoryId === null ? 0 : (interests.categories.get(note.categoryId) ?? 0);
  const tag = Math.max(0, ...note.tagIds.map((id) => interests.tags.get(id) ?? 0));
  const author = interests.authors.get(note.authorId) ?? 0;
  return PARTS.category * category + PARTS.tag * tag + PARTS.author * author;
}

/** The categories that make up the viewer's interests: the strongest few they acted on. */
export function topCategoriesOf(interests: Interests): Set<number> {
  const strongest = [...interests.categories].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  return new Set(strongest.slice(0, TOP_CATEGORIES).map(([id]) => id));
}

/**
 * The viewer's ranking of `depth` notes: candidates by `hot_score + AFFINITY_WEIGHT × affinity`, never the viewer's
 * own nor those they already liked, collected or commented on (`acted`), with every `EXPLORE_EVERY`th slot (the
 * third of each five) given to the best note outside their top categories, so the feed does not close in on one topic.
 */
export function personalRanking(viewerId: string, interests: Interests, acted: ReadonlySet<number>, candidates: Candidate[], depth: number): number[] {
  const top = topCategoriesOf(interests);
  const scored = candidates
    .filter((note) => note.authorId !== viewerId && !acted.has(note.id))
    .map((note) => ({ note, score: note.hotScore + AFFINITY_WEIGHT * affinityOf(interests, note) }))
    .sort((a, b) => b.score - a.score || b.note.id - a.note.id)
    .map(({ note }) => note);
  const outside = scored.filter((note) => note.categoryId === null || !top.has(note.categoryId));
  const taken = new Set<number>();
  const ranking: number[] = [];
  let next = 0;
  let nextOutside = 0;
  while (ranking.length < depth) {
    const exploring = ranking.length % EXPLORE_EVERY === 2;
    while (exploring && nextOutside < outside.length && taken.has(outside[nextOutside].id)) nextOutside++;
    while (next < scored.length && taken.has(scored[next].id)) next++;
    const note = exploring && nextOutside < outside.length ? outside[nextOutside] : scored[next];
    if (!note) break;
    taken.add(note.id);
    ranking.push(note.id);
  }
  return ranking;
}
