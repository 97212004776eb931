import { MutationObserver, QueryClient } from '@tanstack/react-query';
import type { FollowMachine } from '../lib/follow-button';
import { followMutation } from './useFollow';

jest.mock('../lib/api/reactions', () => ({ sendFollow: jest.fn() }));
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { sendFollow } = require('../lib/api/reactions') as { sendFollow: jest.Mock };

function follow(before: FollowMachine['state']) {
  const shown: FollowMachine[] = [];
  const outcome: string[] = [];
  const observer = new MutationObserver(
    new QueryClient(),
    followMutation({ show: (machine) => shown.push(machine), onDone: (state) => outcome.push(`done:${state}`), onFailed: () => outcome.push('failed') }),
  );
  const done = observer.mutate({ userId: 'u1', before, lockedUntil: 2000 }).catch(() => undefined);
  return { shown, outcome, done };
}

describe('the follow mutation', () => {
  beforeEach(() => sendFollow.mockReset());

  it('changes at once, confirms with the server state, and follows back into mutual', async () => {
    sendFollow.mockResolvedValue('mutual');
    const run = follow('back');
    await run.done;
    expect(sendFollow).toHaveBeenCalledWith('u1', true);
    expect(run.shown).toEqual([
      { state: 'mutual', busy: true, lockedUntil: 2000 },
      { state: 'mutual', busy: false, lockedUntil: 2000 },
    ]);
    expect(run.outcome).toEqual(['done:mutual']);
  });

  it('reverts on a failure', async () => {
    sendFollow.mockRejectedValue(new Error('操作失败'));
    const run = follow('mutual');
    await run.done;
    expect(sendFollow).toHaveBeenCalledWith('u1', false);
    expect(run.shown.map((step) => step.state)).toEqual(['back', 'mutual']);
    expect(run.outcome).toEqual(['failed']);
  });

  it('counts "already followed" as success', async () => {
    sendFollow.mockRejectedValue(new Error('已关注该用户'));
    const run = follow('follow');
    await run.done;
    expect(run.shown.at(-1)?.state).toBe('unfollow');
    expect(run.outcome).toEqual(['done:unfollow']);
  });
});
