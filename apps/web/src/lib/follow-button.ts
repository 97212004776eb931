import type { ButtonType } from './api/types';

/** The follow button's texts by state (public-side.md §4). */
export const FOLLOW_LABELS: Record<ButtonType, string> = { follow: '关注', unfollow: '已关注', mutual: '互相关注', back: '回关' };
/** The lock after a click (public-side.md §9). */
export const FOLLOW_LOCK_MS = 2000;

/** Whether a click on the button in this state follows (else it unfollows). */
export function clickFollows(state: ButtonType): boolean {
  return state === 'follow' || state === 'back';
}

/** The state after a successful click: follow → 已关注, back → 互相关注; unfollow → 关注, mutual → 回关. */
export function afterClick(state: ButtonType): ButtonType {
  switch (state) {
    case 'follow':
      return 'unfollow';
    case 'back':
      return 'mutual';
    case 'unfollow':
      return 'follow';
    case 'mutual':
      return 'back';
  }
}

/** A failure whose message says the wanted state already holds counts as success (public-side.md §4). */
export function alreadyDone(message: string): boolean {
  return /已关注|未关注|已经关注|尚未关注/.test(message);
}

export interface FollowMachine {
  state: ButtonType;
  busy: boolean;
  lockedUntil: number;
}

/** A click is ignored while a call is under way or within 2 s of the last click. */
export function clickIgnored(machine: FollowMachine, now: number): boolean {
  return machine.busy || now < machine.lockedUntil;
}
