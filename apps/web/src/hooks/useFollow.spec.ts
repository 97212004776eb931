import { MutationObserver, QueryClient } from '@tanstack/react-query';
import { ApiError } from '../lib/api/client';
import type { FollowMachine } from '../lib/follow-button';
import { requireLogin } from '../lib/require-login';
import { useSession } from '../lib/session';
import { useToasts } from '../lib/toast';
import { followFailed, followMutation } from './useFollow';

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

  describe('when a login is needed (public-side.md §8, Follow)', () => {
    const shown = () => useToasts.getState().toasts.map((toast) => toast.text);
    beforeEach(() => {
      useToasts.setState({ toasts: [] });
      useSession.setState({ authModal: false, token: null, user: null });
    });

    it('asks to log in and opens the login dialog after a 401', () => {
      followFailed(new ApiError('请求失败 (401)', 401));
      expect(shown()).toEqual(['请先登录']);
      expect(useSession.getState().authModal).toBe(true);
    });

    it('says 操作失败，请重试 for any other failure, the dialog staying shut', () => {
      followFailed(new ApiError('服务器内部错误', 500));
      expect(shown()).toEqual(['操作失败，请重试']);
      expect(useSession.getState().authModal).toBe(false);
    });

    it('asks to log in before a click when a stored user has no token', () => {
      useSession.setState({ user: { user_id: 'u1' } as never, token: null });
      expect(requireLogin()).toBe(false);
      expect(shown()).toEqual(['请先登录']);
      expect(useSession.getState()).toMatchObject({ authModal: true, user: null });
    });
  });
});
