import type { FollowGraphRepository, SuggestionRow } from './follow-graph.repository';
import { SuggestionService } from './suggestion.service';

const row = (id: string, followsViewer = false): SuggestionRow => ({ id, user_id: `u${id}`, nickname: `同学${id}`, avatar: '', verified: 0, fans_count: 10, follows_viewer: followsViewer });

function serviceWith(interested: SuggestionRow[], overall: SuggestionRow[]) {
  const calls: { limit: number; interestsOnly: boolean; excluded: string[] }[] = [];
  const graph = {
    suggestions: async (_viewer: string, limit: number, interestsOnly: boolean, excluded: string[]) => {
      calls.push({ limit, interestsOnly, excluded });
      return (interestsOnly ? interested : overall).slice(0, limit);
    },
    followCount: async () => 0,
  } as unknown as FollowGraphRepository;
  return { service: new SuggestionService(graph), calls };
}

describe('people to follow', () => {
  it('fills up from the most followed overall, leaving out who the interests already gave', async () => {
    const { service, calls } = serviceWith([row('1'), row('2', true)], [row('3'), row('4')]);
    const answer = await service.suggest('9', 3);
    expect(answer.users.map((user) => [user.user_id, user.buttonType])).toEqual([['u1', 'follow'], ['u2', 'back'], ['u3', 'follow']]);
    expect(calls).toEqual([{ limit: 3, interestsOnly: true, excluded: [] }, { limit: 1, interestsOnly: false, excluded: ['1', '2'] }]);
  });

  it('asks no more when the interests fill the list', async () => {
    const { service, calls } = serviceWith([row('1'), row('2')], [row('3')]);
    expect((await service.suggest('9', 2)).users).toHaveLength(2);
    expect(calls).toHaveLength(1);
  });
});
