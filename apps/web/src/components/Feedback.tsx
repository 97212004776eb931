/** A small spinning ring. */
export function Spinner({ label = '加载中' }: { label?: string }) {
  return <span className="spinner" role="progressbar" aria-label={label} />;
}

/** Grey card shapes while a feed loads (public-side.md §9: six by default, shimmer). */
export function CardSkeletons({ count = 6 }: { count?: number }) {
  const heights = [260, 200, 300, 230, 280, 210, 250, 240, 220, 290];
  return (
    <>
      {Array.from({ length: count }, (_, index) => (
        <div key={index} className="card skeleton-card" aria-hidden="true">
          <div className="skeleton" style={{ height: heights[index % heights.length] }} />
          <div className="skeleton line" />
          <div className="skeleton line short" />
        </div>
      ))}
    </>
  );
}

/** A centred message for an empty or failed list. */
export function EmptyState({ text, children }: { text: string; children?: React.ReactNode }) {
  return (
    <div className="empty-state">
      <svg width="96" height="96" viewBox="0 0 96 96" aria-hidden="true">
        <circle cx="48" cy="48" r="40" fill="var(--surface-2)" />
        <path d="M30 58c6-8 30-8 36 0" stroke="var(--text-3)" strokeWidth="3" fill="none" strokeLinecap="round" />
        <circle cx="38" cy="42" r="3" fill="var(--text-3)" />
        <circle cx="58" cy="42" r="3" fill="var(--text-3)" />
      </svg>
      <p>{text}</p>
      {children}
    </div>
  );
}
