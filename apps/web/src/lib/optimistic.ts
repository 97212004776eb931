/** A like or collect as the viewer sees it. */
export interface Toggle {
  active: boolean;
  count: number;
}

/** The toggled state: the flag flips and the count follows it, never below zero. */
export function flip(state: Toggle): Toggle {
  return { active: !state.active, count: Math.max(0, state.count + (state.active ? -1 : 1)) };
}

/**
 * An optimistic toggle (public-side.md §4): the new state shows first, the server call follows; its answer
 * settles the count, and a failure restores the old state. Resolves to whether the call succeeded.
 */
export async function toggleOptimistically(current: Toggle, show: (state: Toggle) => void, send: (next: Toggle) => Promise<Toggle>): Promise<boolean> {
  const next = flip(current);
  show(next);
  try {
    show(await send(next));
    return true;
  } catch {
    show(current);
    return false;
  }
}
