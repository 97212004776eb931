import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { api, ApiError, call, type ButtonType } from '../lib/api/client';
import { clickFollow, FOLLOW_LABELS, type FollowMachine } from '../lib/follow-button';
import { useSession } from '../lib/session';
import { toast } from '../lib/toast';

/**
 * The follow button with its four states (关注, 已关注, 互相关注, 回关): optimistic, locked 2 s after a click,
 * 'already followed' counted as success; logged out it opens the login modal. Hidden on one's own card.
 */
export function FollowButton({ userId, initial, size = 'normal' }: { userId: string; initial: ButtonType; size?: 'small' | 'normal' }) {
  const me = useSession((state) => state.user?.user_id);
  const client = useQueryClient();
  const [machine, setMachine] = useState<FollowMachine>({ state: initial, busy: false, lockedUntil: 0 });
  const current = useRef(machine);
  current.current = machine;
  useEffect(() => {
    if (!current.current.busy) setMachine((before) => ({ ...before, state: initial }));
  }, [initial]);
  if (me === userId) return null;

  const click = async () => {
    if (!me) {
      toast.info('请先登录');
      useSession.getState().openAuth();
      return;
    }
    const result = await clickFollow(
      current.current,
      (next) => {
        current.current = next;
        setMachine(next);
      },
      async (follow) => {
        const path = { params: { path: { user_id: userId } } };
        const answer = await call(follow ? api.POST('/api/users/{user_id}/follow', path) : api.DELETE('/api/users/{user_id}/follow', path));
        return answer.buttonType;
      },
    );
    if (result === 'done') {
      const followed = current.current.state === 'unfollow' || current.current.state === 'mutual';
      toast.success(followed ? '关注成功' : '已取消关注');
      setTimeout(() => void client.invalidateQueries({ queryKey: ['people'] }), 500);
    } else if (result === 'failed') toast.error('操作失败，请重试');
  };

  const active = machine.state === 'unfollow' || machine.state === 'mutual';
  return (
    <button type="button" className={`button follow-button ${size} ${active ? 'ghost' : 'primary'}`} data-state={machine.state} aria-busy={machine.busy} onClick={() => void click().catch((error: unknown) => error instanceof ApiError && toast.error(error.message))}>
      {FOLLOW_LABELS[machine.state]}
    </button>
  );
}
