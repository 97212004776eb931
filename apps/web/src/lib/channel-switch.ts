/** Channel switch lock (public-side.md §9). */
export const CHANNEL_LOCK_MS = 1200;

/**
 * The channel switch's state machine (public-side.md §4): idle → switching (locked for 1200 ms) → idle. A pick
 * made while locked is queued, only the latest kept, and applied when the lock ends; picking the channel that
 * is already shown does nothing.
 */
export function createChannelSwitcher(apply: (channel: string) => void, current: () => string, lockMs = CHANNEL_LOCK_MS) {
  let locked = false;
  let queued: string | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const unlock = () => {
    locked = false;
    timer = null;
    const next = queued;
    queued = null;
    if (next !== null && next !== current()) pick(next);
  };

  function pick(channel: string): void {
    if (locked) {
      queued = channel;
      return;
    }
    if (channel === current()) return;
    locked = true;
    apply(channel);
    timer = setTimeout(unlock, lockMs);
  }

  return {
    pick,
    get locked() {
      return locked;
    },
    get queued() {
      return queued;
    },
    dispose() {
      if (timer) clearTimeout(timer);
    },
  };
}
