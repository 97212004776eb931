import { MutationObserver, QueryClient } from '@tanstack/react-query';
import { switched, type Toggle, toggleMutation } from './toggle';

describe('an optimistic toggle', () => {
  it('switches the flag and moves the count, never below zero', () => {
    expect(switched({ active: false, count: 4 }, true)).toEqual({ active: true, count: 5 });
    expect(switched({ active: true, count: 5 }, false)).toEqual({ active: false, count: 4 });
    expect(switched({ active: true, count: 0 }, false)).toEqual({ active: false, count: 0 });
    expect(switched({ active: true, count: 3 }, true)).toEqual({ active: true, count: 3 });
  });

  it('keeps the optimistic state on failure when asked to', async () => {
    let shown: Toggle = { active: false, count: 1 };
    const observer = new MutationObserver(
      new QueryClient(),
      toggleMutation(new QueryClient(), { view: { read: () => shown, write: (_target: string, state) => (shown = state) }, send: () => Promise.reject(new Error('x')), keepOnFailure: true }),
    );
    await observer.mutate({ target: 'a', active: true }).catch(() => undefined);
    expect(shown).toEqual({ active: true, count: 2 });
  });
});
