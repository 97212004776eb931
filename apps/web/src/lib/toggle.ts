import type { MutationOptions, QueryClient, QueryKey } from '@tanstack/react-query';

/** A like or collect as the viewer sees it. */
export interface Toggle {
  active: boolean;
  count: number;
}

/** The state after switching to `active`: the count follows the flag, never below zero. */
export function switched(state: Toggle, active: boolean): Toggle {
  return { active, count: state.active === active ? state.count : Math.max(0, state.count + (active ? 1 : -1)) };
}

/** Where a toggle shows: how its current state is read and a new one written (the query cache, a component's state). */
export interface ToggleView<T> {
  read(target: T): Toggle | undefined;
  write(target: T, state: Toggle): void;
  /** The queries the view writes into; their fetches in flight are cancelled so they cannot overwrite the change. */
  queryKeys?(target: T): QueryKey[];
}

export interface ToggleVariables<T> {
  target: T;
  /** The wanted state. */
  active: boolean;
}

export interface ToggleContext {
  before: Toggle;
}

export interface ToggleSettings<T> {
  view: ToggleView<T>;
  send(target: T, active: boolean): Promise<Toggle>;
  /** Keep the optimistic state when the call fails instead of restoring the old one. */
  keepOnFailure?: boolean;
  onDone?(variables: ToggleVariables<T>, answer: Toggle): void;
  onFailed?(variables: ToggleVariables<T>, error: Error): void;
}

/**
 * An optimistic toggle as a mutation: onMutate snapshots the shown state and writes the new one, onError restores
 * the snapshot, onSuccess reconciles with the server's state and count.
 */
export function toggleMutation<T>(client: QueryClient, settings: ToggleSettings<T>): MutationOptions<Toggle, Error, ToggleVariables<T>, ToggleContext | undefined> {
  const { view } = settings;
  return {
    mutationFn: ({ target, active }) => settings.send(target, active),
    onMutate: async ({ target, active }) => {
      await Promise.all((view.queryKeys?.(target) ?? []).map((queryKey) => client.cancelQueries({ queryKey, exact: true })));
      const before = view.read(target);
      if (!before) return undefined;
      view.write(target, switched(before, active));
      return { before };
    },
    onError: (error, variables, context) => {
      if (context && !settings.keepOnFailure) view.write(variables.target, context.before);
      settings.onFailed?.(variables, error);
    },
    onSuccess: (answer, variables) => {
      view.write(variables.target, answer);
      settings.onDone?.(variables, answer);
    },
  };
}
