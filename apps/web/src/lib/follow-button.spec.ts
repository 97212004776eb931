import { afterClick, clickFollow, clickFollows, FOLLOW_LABELS, FOLLOW_LOCK_MS, type FollowMachine } from './follow-button';

describe('the follow button', () => {
  it('moves through its four states', () => {
    expect(afterClick('follow')).toBe('unfollow');
    expect(afterClick('back')).toBe('mutual');
    expect(afterClick('unfollow')).toBe('follow');
    expect(afterClick('mutual')).toBe('back');
    expect(clickFollows('follow') && clickFollows('back')).toBe(true);
    expect(clickFollows('unfollow') || clickFollows('mutual')).toBe(false);
    expect(FOLLOW_LABELS).toEqual({ follow: '关注', unfollow: '已关注', mutual: '互相关注', back: '回关' });
  });

  function machine(state: FollowMachine['state']) {
    const seen: FollowMachine[] = [];
    let current: FollowMachine = { state, busy: false, lockedUntil: 0 };
    const update = (next: FollowMachine) => {
      current = next;
      seen.push(next);
    };
    return { seen, update, current: () => current };
  }

  it('changes at once, confirms with the server state, and follows back into mutual', async () => {
    const m = machine('back');
    let sent: boolean | null = null;
    const result = await clickFollow(m.current(), m.update, async (follow) => {
      sent = follow;
      expect(m.current()).toMatchObject({ state: 'mutual', busy: true });
      return 'mutual';
    }, () => 1000);
    expect(result).toBe('done');
    expect(sent).toBe(true);
    expect(m.current()).toEqual({ state: 'mutual', busy: false, lockedUntil: 1000 + FOLLOW_LOCK_MS });
  });

  it('reverts on a failure', async () => {
    const m = machine('mutual');
    const result = await clickFollow(m.current(), m.update, () => Promise.reject(new Error('操作失败')), () => 0);
    expect(result).toBe('failed');
    expect(m.seen.map((step) => step.state)).toEqual(['back', 'mutual']);
  });

  it('counts "already followed" as success', async () => {
    const m = machine('follow');
    const result = await clickFollow(m.current(), m.update, () => Promise.reject(new Error('已关注该用户')), () => 0);
    expect(result).toBe('done');
    expect(m.current().state).toBe('unfollow');
  });

  it('ignores clicks while busy or within 2 s of the last one', async () => {
    const m = machine('follow');
    let now = 0;
    await clickFollow(m.current(), m.update, async () => 'unfollow', () => now);
    now = FOLLOW_LOCK_MS - 1;
    expect(await clickFollow(m.current(), m.update, async () => 'follow', () => now)).toBe('ignored');
    expect(m.current().state).toBe('unfollow');
    now = FOLLOW_LOCK_MS;
    expect(await clickFollow(m.current(), m.update, async () => 'follow', () => now)).toBe('done');
    expect(m.current().state).toBe('follow');
    expect(await clickFollow({ ...m.current(), busy: true, lockedUntil: 0 }, m.update, async () => 'unfollow', () => now * 10)).toBe('ignored');
  });
});
