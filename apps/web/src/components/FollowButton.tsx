import { useFollow } from '../hooks/useFollow';
import type { ButtonType } from '../lib/api/client';
import { FOLLOW_LABELS } from '../lib/follow-button';
import { useSession } from '../lib/session';

/**
 * The follow button with its four states (关注, 已关注, 互相关注, 回关): optimistic, locked 2 s after a click,
 * 'already followed' counted as success; logged out it opens the login modal. Hidden on one's own card.
 */
export function FollowButton({ userId, initial, size = 'normal' }: { userId: string; initial: ButtonType; size?: 'small' | 'normal' }) {
  const me = useSession((state) => state.user?.user_id);
  const { machine, click } = useFollow(userId, initial);
  if (me === userId) return null;
  const active = machine.state === 'unfollow' || machine.state === 'mutual';
  return (
    <button type="button" className={`button follow-button ${size} ${active ? 'ghost' : 'primary'}`} data-state={machine.state} aria-busy={machine.busy} onClick={click}>
      {FOLLOW_LABELS[machine.state]}
    </button>
  );
}
