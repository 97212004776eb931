import { type ReactNode, useDeferredValue, useMemo, useRef, useSyncExternalStore } from 'react';
import { FEED_NEAR_END, useNearEnd } from '../hooks/useNearEnd';
import { layoutFor, placeItems } from '../lib/waterfall';

// The window's width as of its last resize. Read in a render, `innerWidth` would make the browser lay the page out
// there and then, halfway through React's changes to it.
let windowWidth = typeof window === 'undefined' ? 1280 : window.innerWidth;
const widthListeners = new Set<() => void>();
if (typeof window !== 'undefined') {
  window.addEventListener('resize', () => {
    windowWidth = window.innerWidth;
    for (const notify of widthListeners) notify();
  });
}

function useWindowWidth(): number {
  return useSyncExternalStore(
    (notify) => {
      widthListeners.add(notify);
      return () => widthListeners.delete(notify);
    },
    () => windowWidth,
    () => 1280,
  );
}

/**
 * The cards of a first screen (two rows of the widest layout): a waterfall draws these at once when it appears, the
 * rest in slices the browser can interleave; the explore page loads their covers at once and shows as many skeletons.
 */
export const FIRST_SCREEN = 10;

/**
 * The waterfall every feed uses: items in columns that keep their places while more load, and a sentinel that
 * asks for the next page within 200 px of the bottom (after 200 ms there).
 *
 * It draws its first cards at once and the others (and each later page) as deferred work, which React renders in
 * slices between which the browser paints and answers taps: twenty cards in one go hold a slow phone for a long
 * moment just as the first screen would show.
 */
export function Waterfall<T extends { id: number }>({
  items,
  estimate,
  render,
  onEnd,
  footer,
}: {
  items: T[];
  estimate: (item: T) => number;
  render: (item: T) => ReactNode;
  onEnd?: () => void;
  footer?: ReactNode;
}) {
  const shown = useDeferredValue(items, items.slice(0, FIRST_SCREEN));
  const { columns, gap } = layoutFor(useWindowWidth());
  const layout = useRef<{ columns: number; placed: number[]; totals: number[]; firstId?: number } | undefined>(undefined);
  const sentinel = useRef<HTMLDivElement>(null);

  const columnsOfItems = useMemo(() => {
    const previous = layout.current && layout.current.firstId === shown[0]?.id ? layout.current : undefined;
    const next = placeItems(shown.map(estimate), columns, previous);
    layout.current = { ...next, firstId: shown[0]?.id };
    const lists: T[][] = Array.from({ length: columns }, () => []);
    shown.forEach((item, index) => lists[next.placed[index]].push(item));
    return lists;
  }, [shown, columns, estimate]);

  useNearEnd(sentinel, onEnd, FEED_NEAR_END, shown.length);

  return (
    <>
      <div className="waterfall" style={{ gap, gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))` }}>
        {columnsOfItems.map((column, index) => (
          <div className="waterfall-column" key={index} style={{ gap }}>
            {column.map((item) => (
              <div key={item.id}>{render(item)}</div>
            ))}
          </div>
        ))}
      </div>
      {footer}
      <div ref={sentinel} className="waterfall-sentinel" aria-hidden="true" />
    </>
  );
}
