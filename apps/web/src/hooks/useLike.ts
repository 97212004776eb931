import type { QueryClient } from '@tanstack/react-query';
import { type LikeTarget, sendLike } from '../lib/api/reactions';
import { type ToggleSettings, toggleMutation } from '../lib/toggle';
import { useToggle } from './useToggle';

export type LikeSettings<T> = Omit<ToggleSettings<T>, 'send'> & { targetOf(target: T): LikeTarget };

function likeSettings<T>(settings: LikeSettings<T>): ToggleSettings<T> {
  return { ...settings, send: (target, active) => sendLike(settings.targetOf(target), active) };
}

/** The like mutation's options (optimistic, rolled back on failure), for a view of notes or comments. */
export function likeMutation<T>(client: QueryClient, settings: LikeSettings<T>) {
  return toggleMutation(client, likeSettings(settings));
}

/** The one like: of a note or a comment, wherever it shows. `like(target)` answers whether it started. */
export function useLike<T>(settings: LikeSettings<T>) {
  return useToggle(likeSettings(settings), (target) => {
    const { target_type, target_id } = settings.targetOf(target);
    return `${target_type}:${target_id}`;
  });
}
