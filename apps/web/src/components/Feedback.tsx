import type { ReactNode } from 'react';

/** A small spinning ring. */
export function Spinner({ label = '加载中' }: { label?: string }) {
  return <span className="spinner" role="progressbar" aria-label={label} />;
}

export type SkeletonType = 'image-card' | 'user-card' | 'user-item' | 'custom';
export type SkeletonAnimation = 'shimmer' | 'pulse' | 'none';

/** The skeleton loader's defaults (public-side.md §9): six items, 48 px avatars, 200 px images. */
export const SKELETON = { count: 6, avatarPx: 48, imageHeightPx: 200 } as const;
/** Image-card heights vary around the image height, so that a loading waterfall looks like one and not like a grid. */
const IMAGE_RHYTHM = [1, 1.3, 1.15, 1.5, 1.05, 1.4, 1.25, 1.2, 1.1, 1.45];

/** A person's lines beside the avatar: a profile's head has a title and two lines, a list item a name and a line. */
const PERSON_LINES = { 'user-card': ['title', '', 'short'], 'user-item': ['short', ''] } as const;

function SkeletonItem({ type, index, avatar, imageHeight, children }: { type: SkeletonType; index: number; avatar: number; imageHeight: number; children?: ReactNode }) {
  switch (type) {
    case 'image-card':
      return (
        <>
          <div className="skeleton" style={{ height: Math.round(imageHeight * IMAGE_RHYTHM[index % IMAGE_RHYTHM.length]) }} />
          <div className="skeleton line" />
          <div className="skeleton line short" />
        </>
      );
    case 'user-card':
    case 'user-item':
      return (
        <>
          <div className="skeleton round" style={{ width: avatar, height: avatar }} />
          <div className="skeleton-lines">
            {PERSON_LINES[type].map((kind, line) => (
              <div key={line} className={kind ? `skeleton line ${kind}` : 'skeleton line'} />
            ))}
          </div>
        </>
      );
    case 'custom':
      return children;
  }
}

/**
 * The one skeleton loader, shown where a list loads: `count` image cards (a feed), user cards (a profile's head),
 * user items (a list of people or notifications), or `children` as a custom shape; animated by shimmer, pulse or not.
 */
export function Skeleton({
  type = 'image-card',
  animation = 'shimmer',
  count = SKELETON.count,
  avatar = SKELETON.avatarPx,
  imageHeight = SKELETON.imageHeightPx,
  children,
}: {
  type?: SkeletonType;
  animation?: SkeletonAnimation;
  count?: number;
  avatar?: number;
  imageHeight?: number;
  children?: ReactNode;
}) {
  return (
    <>
      {Array.from({ length: count }, (_, index) => (
        <div key={index} className={`skeleton-item skeleton-${type} skeleton-${animation}${type === 'image-card' ? ' card' : ''}`} aria-hidden="true">
          <SkeletonItem type={type} index={index} avatar={avatar} imageHeight={imageHeight}>
            {children}
          </SkeletonItem>
        </div>
      ))}
    </>
  );
}

/** A centred message for an empty or failed list. */
export function EmptyState({ text, children }: { text: string; children?: ReactNode }) {
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
