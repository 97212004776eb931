import { type RefObject, useEffect, useRef } from 'react';

/** How near the end a list asks for more, and how long the sentinel must stay in view before it does. */
export interface NearEnd {
  marginPx: number;
  delayMs: number;
}

/** The feeds: within 200 px of the bottom, debounced 200 ms (public-side.md §9). */
export const FEED_NEAR_END: NearEnd = { marginPx: 200, delayMs: 200 };

/**
 * The debounce behind `useNearEnd`: `seen(true)` arms a timer that calls `onEnd` after `delayMs`, `seen(false)`
 * disarms it, so a sentinel that only flashes past during a fast scroll asks for nothing.
 */
export function nearEndTrigger(onEnd: () => void, delayMs: number) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = () => {
    clearTimeout(timer);
    timer = undefined;
  };
  return {
    seen(inView: boolean) {
      if (!inView) return stop();
      if (timer === undefined)
        timer = setTimeout(() => {
          timer = undefined;
          onEnd();
        }, delayMs);
    },
    stop,
  };
}

/**
 * Calls `onEnd` when `sentinel` has been within `marginPx` of the viewport for `delayMs`. It watches anew whenever
 * `round` changes (a page came in), so a sentinel still in view asks for the next page.
 */
export function useNearEnd(sentinel: RefObject<HTMLElement | null>, onEnd: (() => void) | undefined, { marginPx, delayMs }: NearEnd, round: unknown) {
  const end = useRef(onEnd);
  end.current = onEnd;
  useEffect(() => {
    const element = sentinel.current;
    if (!element) return;
    const trigger = nearEndTrigger(() => end.current?.(), delayMs);
    const observer = new IntersectionObserver((entries) => trigger.seen(entries.some((entry) => entry.isIntersecting)), { rootMargin: `0px 0px ${marginPx}px 0px` });
    observer.observe(element);
    return () => {
      observer.disconnect();
      trigger.stop();
    };
  }, [sentinel, marginPx, delayMs, round]);
}
