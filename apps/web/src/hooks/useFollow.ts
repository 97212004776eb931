import { type MutationOptions, type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../lib/api/client';
import { sendFollow } from '../lib/api/reactions';
import { sharedKeys } from '../lib/api/query-keys';
import type { ButtonType } from '../lib/api/types';
import { afterClick, alreadyDone, clickFollows, clickIgnored, FOLLOW_LOCK_MS, type FollowMachine } from '../lib/follow-button';
import { askToLogIn, requireLogin } from '../lib/require-login';
import { toast } from '../lib/toast';
import { LISTS_REFRESH_MS } from './useLike';

export interface FollowVariables {
  userId: string;
  before: ButtonType;
  lockedUntil: number;
}

export interface FollowSettings {
  show(machine: FollowMachine): void;
  onDone?(state: ButtonType): void;
  onFailed?(error: Error): void;
}

/**
 * The follow mutation: the button's new state shows at once (onMutate), the server's state confirms it (onSuccess),
 * and a failure restores the old one (onError) unless its message says the wanted state already holds.
 */
export function followMutation(settings: FollowSettings): MutationOptions<ButtonType | null, Error, FollowVariables, { before: ButtonType }> {
  return {
    mutationFn: ({ userId, before }) => sendFollow(userId, clickFollows(before)),
    onMutate: ({ before, lockedUntil }) => {
      settings.show({ state: afterClick(before), busy: true, lockedUntil });
      return { before };
    },
    onSuccess: (confirmed, { before, lockedUntil }) => {
      const state = confirmed ?? afterClick(before);
      settings.show({ state, busy: false, lockedUntil });
      settings.onDone?.(state);
    },
    onError: (error, { before, lockedUntil }) => {
      if (alreadyDone(error.message)) {
        settings.show({ state: afterClick(before), busy: false, lockedUntil });
        settings.onDone?.(afterClick(before));
        return;
      }
      settings.show({ state: before, busy: false, lockedUntil });
      settings.onFailed?.(error);
    },
  };
}

/** A failed follow's message: a 401 (the session ended, its refresh failed too) asks to log in again. */
export function followFailed(error: Error): void {
  if (error instanceof ApiError && error.status === 401) askToLogIn();
  else toast.error('操作失败，请重试');
}

function refreshPeopleLater(client: QueryClient) {
  setTimeout(() => void client.invalidateQueries({ queryKey: sharedKeys.people }), LISTS_REFRESH_MS);
}

/**
 * The one follow: the button's state machine (关注, 已关注, 互相关注, 回关), optimistic, locked 2 s after a click,
 * asking to log in (请先登录 and the login modal) when logged out, without a token or answered 401. `click()` follows or
 * unfollows.
 */
export function useFollow(userId: string, initial: ButtonType) {
  const client = useQueryClient();
  const [machine, setMachine] = useState<FollowMachine>({ state: initial, busy: false, lockedUntil: 0 });
  const current = useRef(machine);
  current.current = machine;
  useEffect(() => {
    if (!current.current.busy) setMachine((before) => ({ ...before, state: initial }));
  }, [initial]);

  const show = (next: FollowMachine) => {
    current.current = next;
    setMachine(next);
  };
  const mutation = useMutation(
    followMutation({
      show,
      onDone: (state) => {
        toast.success(state === 'unfollow' || state === 'mutual' ? '关注成功' : '已取消关注');
        refreshPeopleLater(client);
      },
      onFailed: followFailed,
    }),
  );

  const click = () => {
    if (!requireLogin() || clickIgnored(current.current, Date.now())) return;
    const variables = { userId, before: current.current.state, lockedUntil: Date.now() + FOLLOW_LOCK_MS };
    current.current = { ...current.current, busy: true };
    mutation.mutate(variables);
  };
  return { machine, click };
}
