/** Columns and gap by window width (public-side.md §9). */
export function layoutFor(width: number): { columns: number; gap: number } {
  if (width >= 1420) return { columns: 5, gap: 16 };
  if (width >= 1200) return { columns: 4, gap: 16 };
  if (width >= 900) return { columns: 4, gap: 15 };
  if (width >= 600) return { columns: 3, gap: 12 };
  return { columns: 2, gap: 10 };
}

/**
 * Which column each item goes to: each new item to the shortest column so far, by its estimated height.
 * Items already placed keep their column when more are appended; a new list or column count starts over.
 */
export function placeItems(heights: number[], columns: number, previous?: { columns: number; placed: number[]; totals: number[] }) {
  const keep = previous && previous.columns === columns && previous.placed.length <= heights.length;
  const placed = keep ? [...previous.placed] : [];
  const totals = keep ? [...previous.totals] : Array<number>(columns).fill(0);
  for (let index = placed.length; index < heights.length; index++) {
    const column = totals.indexOf(Math.min(...totals));
    placed.push(column);
    totals[column] += heights[index];
  }
  return { columns, placed, totals };
}
