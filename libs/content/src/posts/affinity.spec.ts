import { AFFINITY_WEIGHT, affinityOf, type Candidate, EXPLORE_EVERY, interestsOf, personalRanking, topCategoriesOf } from './affinity';

const note = (id: number, categoryId: number | null, hotScore: number, extra: Partial<Candidate> = {}): Candidate => ({ id, authorId: '100', categoryId, tagIds: [], hotScore, ...extra });

describe('the personalised 推荐 score', () => {
  const interests = interestsOf([
    { kind: 'category', key: '1', weight: 8 },
    { kind: 'category', key: '2', weight: 2 },
    { kind: 'tag', key: '7', weight: 4 },
    { kind: 'author', key: '55', weight: 3 },
    { kind: 'author', key: '55', weight: 3 },
    { kind: 'author', key: '56', weight: 3 },
  ]);

  it('weighs each kind relative to the viewer\'s favourite of it, summing repeated rows', () => {
    expect(interests.categories).toEqual(new Map([[1, 1], [2, 0.25]]));
    expect(interests.tags).toEqual(new Map([[7, 1]]));
    expect(interests.authors).toEqual(new Map([['55', 1], ['56', 0.5]]));
  });

  it('is two fifths category, two fifths best tag and a fifth author, 0 for a stranger', () => {
    expect(affinityOf(interests, note(1, 1, 0, { tagIds: [3, 7], authorId: '55' }))).toBe(1);
    expect(affinityOf(interests, note(2, 2, 0, { authorId: '56' }))).toBeCloseTo(0.4 * 0.25 + 0.2 * 0.5);
    expect(affinityOf(interests, note(3, 5, 0, { tagIds: [9] }))).toBe(0);
    expect(affinityOf(interests, note(4, null, 0))).toBe(0);
  });

  it('has no interests, and ranks by engagement alone, for a viewer who did nothing yet', () => {
    const none = interestsOf([]);
    expect(topCategoriesOf(none).size).toBe(0);
    expect(personalRanking('9', none, new Set(), [note(1, 1, 1), note(2, 2, 3), note(3, 3, 2)], 10)).toEqual([2, 3, 1]);
  });

  it('lifts a matching note above a more engaging stranger by up to the affinity weight', () => {
    const candidates = [note(1, 5, 10 + AFFINITY_WEIGHT - 0.1), note(2, 1, 10, { tagIds: [7], authorId: '55' }), note(3, 5, 10 + AFFINITY_WEIGHT + 0.1)];
    expect(personalRanking('9', interests, new Set(), candidates, 2)).toEqual([3, 2]);
  });

  it('never ranks the viewer\'s own notes', () => {
    expect(personalRanking('100', interests, new Set(), [note(1, 1, 5), note(2, 1, 4, { authorId: '7' })], 10)).toEqual([2]);
  });

  it('never ranks the notes the viewer already acted on', () => {
    expect(personalRanking('9', interests, new Set([1]), [note(1, 1, 5), note(2, 1, 4)], 10)).toEqual([2]);
  });

  it('gives one slot in five to the best note outside the viewer\'s top categories', () => {
    const inside = Array.from({ length: 30 }, (_, i) => note(100 + i, 1, 50 - i));
    const outside = Array.from({ length: 10 }, (_, i) => note(200 + i, 6, 10 - i));
    const ranking = personalRanking('9', interests, new Set(), [...inside, ...outside], 20);
    expect(ranking).toHaveLength(20);
    const explored = ranking.filter((id) => id >= 200);
    expect(explored).toEqual([200, 201, 202, 203]);
    expect(explored.length / ranking.length).toBeGreaterThanOrEqual(1 / EXPLORE_EVERY);
    expect(ranking.indexOf(200)).toBe(2);
    expect(new Set(ranking).size).toBe(ranking.length);
  });

  it('fills the exploration slots with the rest when nothing lies outside the interests', () => {
    expect(personalRanking('9', interests, new Set(), [note(1, 1, 3), note(2, 2, 2), note(3, 1, 1)], 10)).toEqual([1, 2, 3]);
  });
});
