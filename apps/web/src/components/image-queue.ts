/**
 * Lazy images (public-side.md §9, admin-and-startup.md §9): at most 4 load at once, loading starts 100 px before an
 * image nears the viewport, a load gives up after 5 s (3 s in the back office) and is tried again 15 s later; every
 * 5 s a slot held for more than 10 s is taken back so that one stuck image cannot hold the queue.
 */
export const LAZY_IMAGES = {
  concurrent: 4,
  marginPx: 100,
  timeoutMs: 5000,
  adminTimeoutMs: 3000,
  recheckMs: 15_000,
  stuckCheckMs: 5000,
  stuckAfterMs: 10_000,
} as const;

export interface ImageQueueSettings {
  concurrent: number;
  stuckCheckMs: number;
  stuckAfterMs: number;
}

/**
 * Slots for image loads: `request(start)` calls `start` once a slot is free (at once when one is) and answers the
 * release, to be called when the load ends or is abandoned; releasing twice, or before the start, is harmless.
 */
export function createImageQueue({ concurrent, stuckCheckMs, stuckAfterMs }: ImageQueueSettings, now: () => number = Date.now) {
  const active = new Map<number, number>();
  const waiting: { ticket: number; start: () => void }[] = [];
  let tickets = 0;
  let sweeper: ReturnType<typeof setInterval> | undefined;

  const sweep = () => {
    for (const [ticket, startedAt] of active) if (now() - startedAt > stuckAfterMs) active.delete(ticket);
    pump();
  };

  function pump() {
    while (active.size < concurrent && waiting.length > 0) {
      const next = waiting.shift()!;
      active.set(next.ticket, now());
      next.start();
    }
    if (active.size > 0 && sweeper === undefined) sweeper = setInterval(sweep, stuckCheckMs);
    if (active.size === 0 && sweeper !== undefined) {
      clearInterval(sweeper);
      sweeper = undefined;
    }
  }

  return {
    request(start: () => void): () => void {
      const ticket = ++tickets;
      waiting.push({ ticket, start });
      pump();
      return () => {
        const at = waiting.findIndex((item) => item.ticket === ticket);
        if (at >= 0) waiting.splice(at, 1);
        if (active.delete(ticket)) pump();
      };
    },
    get loading() {
      return active.size;
    },
    get waiting() {
      return waiting.length;
    },
  };
}

/** The one queue every lazy image of the page shares. */
export const imageQueue = createImageQueue(LAZY_IMAGES);
