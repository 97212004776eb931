import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { type LikeTarget, sendLike } from '../lib/api/reactions';
import { sharedKeys } from '../lib/api/query-keys';
import { type ToggleSettings, toggleMutation } from '../lib/toggle';
import { useToggle } from './useToggle';

/** After a note's like or a follow, the lists it changes are fetched again this much later, once the server has settled. */
export const LISTS_REFRESH_MS = 500;

export type LikeSettings<T> = Omit<ToggleSettings<T>, 'send'> & { targetOf(target: T): LikeTarget };

function likeSettings<T>(client: QueryClient, settings: LikeSettings<T>): ToggleSettings<T> {
  return {
    ...settings,
    send: (target, active) => sendLike(settings.targetOf(target), active),
    onDone: (variables, answer) => {
      settings.onDone?.(variables, answer);
      if (settings.targetOf(variables.target).target_type === 1) setTimeout(() => void client.invalidateQueries({ queryKey: sharedKeys.feeds }), LISTS_REFRESH_MS);
    },
  };
}

/** The like mutation's options (optimistic, rolled back on failure), for a view of notes or comments. */
export function likeMutation<T>(client: QueryClient, settings: LikeSettings<T>) {
  return toggleMutation(client, likeSettings(client, settings));
}

/** The one like: of a note or a comment, wherever it shows. `like(target)` answers whether it started. */
export function useLike<T>(settings: LikeSettings<T>) {
  const client = useQueryClient();
  return useToggle(likeSettings(client, settings), (target) => {
    const { target_type, target_id } = settings.targetOf(target);
    return `${target_type}:${target_id}`;
  });
}
