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

/**
 * One click on the follow button: ignored while a call is under way or within 2 s of the last click; otherwise
 * the state changes at once, the call follows, and on a real failure the old state comes back.
 */
export async function clickFollow(
  machine: FollowMachine,
  update: (machine: FollowMachine) => void,
  send: (follow: boolean) => Promise<ButtonType | null>,
  now: () => number = Date.now,
): Promise<'ignored' | 'done' | 'failed'> {
  if (machine.busy || now() < machine.lockedUntil) return 'ignored';
  const before = machine.state;
  const lockedUntil = now() + FOLLOW_LOCK_MS;
  update({ state: afterClick(before), busy: true, lockedUntil });
  try {
    const confirmed = await send(clickFollows(before));
    update({ state: confirmed ?? afterClick(before), busy: false, lockedUntil });
    return 'done';
  } catch (error) {
    if (error instanceof Error && alreadyDone(error.message)) {
      update({ state: afterClick(before), busy: false, lockedUntil });
      return 'done';
    }
    update({ state: before, busy: false, lockedUntil });
    return 'failed';
  }
}
