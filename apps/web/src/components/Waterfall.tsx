import { type ReactNode, useMemo, useRef, useSyncExternalStore } from 'react';
import { FEED_NEAR_END, useNearEnd } from '../hooks/useNearEnd';
import { layoutFor, placeItems } from '../lib/waterfall';

function useWindowWidth(): number {
  return useSyncExternalStore(
    (notify) => {
      window.addEventListener('resize', notify);
      return () => window.removeEventListener('resize', notify);
    },
    () => window.innerWidth,
    () => 1280,
  );
}

/**
 * The waterfall every feed uses: items in columns that keep their places while more load, and a sentinel that
 * asks for the next page within 200 px of the bottom (after 200 ms there).
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
  const { columns, gap } = layoutFor(useWindowWidth());
  const layout = useRef<{ columns: number; placed: number[]; totals: number[]; firstId?: number } | undefined>(undefined);
  const sentinel = useRef<HTMLDivElement>(null);

  const columnsOfItems = useMemo(() => {
    const previous = layout.current && layout.current.firstId === items[0]?.id ? layout.current : undefined;
    const next = placeItems(items.map(estimate), columns, previous);
    layout.current = { ...next, firstId: items[0]?.id };
    const lists: T[][] = Array.from({ length: columns }, () => []);
    items.forEach((item, index) => lists[next.placed[index]].push(item));
    return lists;
  }, [items, columns, estimate]);

  useNearEnd(sentinel, onEnd, FEED_NEAR_END, items.length);

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
