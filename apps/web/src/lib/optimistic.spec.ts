import { flip, toggleOptimistically } from './optimistic';

describe('an optimistic like or collect', () => {
  it('flips the flag and moves the count, never below zero', () => {
    expect(flip({ active: false, count: 4 })).toEqual({ active: true, count: 5 });
    expect(flip({ active: true, count: 5 })).toEqual({ active: false, count: 4 });
    expect(flip({ active: true, count: 0 })).toEqual({ active: false, count: 0 });
  });

  it('shows the new state before the server answers, then the server count', async () => {
    const shown: unknown[] = [];
    let release: (value: { active: boolean; count: number }) => void = () => undefined;
    const done = toggleOptimistically({ active: false, count: 9 }, (state) => shown.push(state), () => new Promise((resolve) => (release = resolve)));
    expect(shown).toEqual([{ active: true, count: 10 }]);
    release({ active: true, count: 12 });
    await expect(done).resolves.toBe(true);
    expect(shown).toEqual([
      { active: true, count: 10 },
      { active: true, count: 12 },
    ]);
  });

  it('rolls back to the old state when the call fails', async () => {
    const shown: unknown[] = [];
    const ok = await toggleOptimistically({ active: true, count: 3 }, (state) => shown.push(state), () => Promise.reject(new Error('操作失败')));
    expect(ok).toBe(false);
    expect(shown).toEqual([
      { active: false, count: 2 },
      { active: true, count: 3 },
    ]);
  });
});
