import { type TouchEvent, useEffect, useRef, useState } from 'react';

/** A swipe changes the image past this many pixels; a move locks to horizontal after this many (public-side.md §9). */
export const SWIPE_PX = 50;
export const LOCK_PX = 10;
/** The axis a move from the touch's start locks to, once it has gone LOCK_PX either way; null before that. */
export function lockedAxis(dx: number, dy: number): 'x' | 'y' | null {
  if (Math.max(Math.abs(dx), Math.abs(dy)) <= LOCK_PX) return null;
  return Math.abs(dx) > Math.abs(dy) ? 'x' : 'y';
}

/** How long the track takes to snap, in step with the `.gallery-track.settling` transition. */
const SETTLE_MS = 260;

/**
 * The note gallery's slide: the track follows a horizontal finger (a vertical one scrolls the page), then snaps to
 * the next or previous image past 50 px, or back; the arrows and dots slide the same way. `offset` is the track's
 * shift in pixels, `settling` whether it is animating to rest.
 */
export function useGallerySwipe(count: number, index: number, setIndex: (index: number) => void) {
  const [offset, setOffset] = useState(0);
  const [settling, setSettling] = useState(false);
  const frame = useRef<HTMLDivElement>(null);
  const touch = useRef<{ x: number; y: number; axis: 'x' | 'y' | null } | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const width = () => frame.current?.clientWidth ?? 0;

  /** Animates the track to rest at `to` pixels, then shows image `next` with the track back at zero. */
  const settle = (to: number, next: number) => {
    clearTimeout(timer.current);
    setSettling(true);
    setOffset(to);
    timer.current = setTimeout(() => {
      setSettling(false);
      setOffset(0);
      if (next !== index) setIndex(next);
    }, SETTLE_MS);
  };

  const step = (by: 1 | -1) => settle(-by * width(), (index + by + count) % count);

  const onTouchStart = (event: TouchEvent) => {
    if (event.touches.length > 1) {
      // A second finger makes it a pinch: a swipe under way goes back to rest.
      if (touch.current?.axis === 'x') settle(0, index);
      touch.current = null;
      return;
    }
    touch.current = count < 2 || settling ? null : { x: event.touches[0].clientX, y: event.touches[0].clientY, axis: null };
  };

  const onTouchMove = (event: TouchEvent) => {
    const from = touch.current;
    if (!from) return;
    const dx = event.touches[0].clientX - from.x;
    const dy = event.touches[0].clientY - from.y;
    from.axis ??= lockedAxis(dx, dy);
    if (from.axis === 'x') setOffset(dx);
  };

  const onTouchEnd = (event: TouchEvent) => {
    const from = touch.current;
    touch.current = null;
    if (!from || from.axis !== 'x') return;
    const dx = event.changedTouches[0].clientX - from.x;
    if (Math.abs(dx) > SWIPE_PX) step(dx < 0 ? 1 : -1);
    else settle(0, index);
  };

  return {
    frame,
    offset,
    settling,
    next: () => step(1),
    previous: () => step(-1),
    handlers: { onTouchStart, onTouchMove, onTouchEnd, onTouchCancel: onTouchEnd },
  };
}
