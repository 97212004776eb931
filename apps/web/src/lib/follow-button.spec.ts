import { afterClick, alreadyDone, clickFollows, clickIgnored, FOLLOW_LABELS, FOLLOW_LOCK_MS } from './follow-button';

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

  it('ignores clicks while busy or within 2 s of the last one', () => {
    expect(clickIgnored({ state: 'follow', busy: true, lockedUntil: 0 }, 10)).toBe(true);
    expect(clickIgnored({ state: 'follow', busy: false, lockedUntil: FOLLOW_LOCK_MS }, FOLLOW_LOCK_MS - 1)).toBe(true);
    expect(clickIgnored({ state: 'follow', busy: false, lockedUntil: FOLLOW_LOCK_MS }, FOLLOW_LOCK_MS)).toBe(false);
  });

  it('counts a message saying the wanted state holds as success', () => {
    expect(alreadyDone('已关注该用户')).toBe(true);
    expect(alreadyDone('操作失败')).toBe(false);
  });
});
