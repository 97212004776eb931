import { MutationObserver, QueryClient } from '@tanstack/react-query';
import type { LikeTarget } from '../lib/api/reactions';
import { LISTS_REFRESH_MS, likeMutation } from './useLike';

jest.mock('../lib/api/reactions', () => ({ sendLike: jest.fn(async () => ({ active: true, count: 1 })) }));

function likeOf(target_type: 1 | 2) {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  const invalidate = jest.spyOn(client, 'invalidateQueries').mockResolvedValue();
  const state = { active: false, count: 0 };
  const view = { read: () => state, write: (_target: number, next: typeof state) => Object.assign(state, next) };
  const observer = new MutationObserver(client, likeMutation(client, { view, targetOf: (id: number): LikeTarget => ({ target_type, target_id: id }) }));
  return { observer, invalidate };
}

describe('a like', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('fetches the lists of notes again 500 ms after a note is liked, as after a follow', async () => {
    const { observer, invalidate } = likeOf(1);
    await observer.mutate({ target: 7, active: true });
    jest.advanceTimersByTime(LISTS_REFRESH_MS - 1);
    expect(invalidate).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['feed'] });
    expect(LISTS_REFRESH_MS).toBe(500);
  });

  it('leaves the lists alone after a comment is liked', async () => {
    const { observer, invalidate } = likeOf(2);
    await observer.mutate({ target: 7, active: true });
    jest.advanceTimersByTime(LISTS_REFRESH_MS * 2);
    expect(invalidate).not.toHaveBeenCalled();
  });
});
