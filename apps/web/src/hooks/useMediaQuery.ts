import { useSyncExternalStore } from 'react';

const lists = new Map<string, MediaQueryList>();
/** One list per query for the page's life, rather than a new one at every render. */
function listOf(query: string): MediaQueryList {
  let list = lists.get(query);
  if (!list) lists.set(query, (list = window.matchMedia(query)));
  return list;
}

/** Whether a media query matches, following its changes. */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (notify) => {
      const list = listOf(query);
      list.addEventListener('change', notify);
      return () => list.removeEventListener('change', notify);
    },
    () => listOf(query).matches,
    () => false,
  );
}

/** Wide layout above 960 px (public-side.md §9 breakpoints). */
export const WIDE = '(min-width: 961px)';
/** Mobile at 768 px and under. */
export const MOBILE = '(max-width: 768px)';
/** A device whose pointer can hover (the hover card is not used on touch devices). */
export const HOVER = '(hover: hover) and (pointer: fine)';
