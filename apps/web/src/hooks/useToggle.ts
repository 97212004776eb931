import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { requireLogin } from '../lib/require-login';
import { type ToggleSettings, toggleMutation } from '../lib/toggle';

/**
 * An optimistic toggle bound to a view: `toggle(target)` asks to log in when logged out, ignores a target whose
 * call is still under way, and otherwise flips it; it answers whether it started.
 */
export function useToggle<T>(settings: ToggleSettings<T>, idOf: (target: T) => string | number) {
  const client = useQueryClient();
  const pending = useRef(new Set<string | number>());
  // Cleared in the mutation's own onSettled, which runs for every call (a call's own callbacks run for the last one only).
  const mutation = useMutation({ ...toggleMutation(client, settings), onSettled: (_answer, _error, variables) => pending.current.delete(idOf(variables.target)) });
  return (target: T): boolean => {
    if (!requireLogin()) return false;
    const id = idOf(target);
    const state = settings.view.read(target);
    if (!state || pending.current.has(id)) return false;
    pending.current.add(id);
    mutation.mutate({ target, active: !state.active });
    return true;
  };
}
