import type { QueryClient } from '@tanstack/react-query';
import { sendCollect } from '../lib/api/reactions';
import { type ToggleSettings, toggleMutation } from '../lib/toggle';
import { useToggle } from './useToggle';

export type CollectSettings<T> = Omit<ToggleSettings<T>, 'send'> & { noteIdOf(target: T): number };

function collectSettings<T>(settings: CollectSettings<T>): ToggleSettings<T> {
  return { ...settings, send: (target, active) => sendCollect(settings.noteIdOf(target), active) };
}

/** The collect mutation's options (optimistic, rolled back on failure). */
export function collectMutation<T>(client: QueryClient, settings: CollectSettings<T>) {
  return toggleMutation(client, collectSettings(settings));
}

/** The one collect of a note. `collect(target)` answers whether it started. */
export function useCollect<T>(settings: CollectSettings<T>) {
  return useToggle(collectSettings(settings), settings.noteIdOf);
}
