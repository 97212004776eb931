import { useSyncExternalStore } from 'react';

/** Whether a media query matches, following its changes. */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (notify) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', notify);
      return () => list.removeEventListener('change', notify);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** Wide layout above 960 px (public-side.md §9 breakpoints). */
export const WIDE = '(min-width: 961px)';
/** Mobile at 768 px and under. */
export const MOBILE = '(max-width: 768px)';
/** A device whose pointer can hover (the hover card is not used on touch devices). */
export const HOVER = '(hover: hover) and (pointer: fine)';
