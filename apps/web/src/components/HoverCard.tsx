import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useLayoutEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { HOVER, useMediaQuery } from '../hooks/useMediaQuery';
import { userCardQuery } from '../lib/api/people';
import { formatCount } from '../lib/format';
import { useSession } from '../lib/session';
import { Avatar } from './Avatar';
import { FollowButton } from './FollowButton';
import { VerifiedBadge } from './Icon';

/** The hover card (admin-and-startup.md §9): shown after 500 ms, hidden 200 ms after the pointer leaves, about 360 × 300, 12 px from its anchor and at least 16 px from the viewport's edges. */
export const HOVER_CARD = { showDelayMs: 500, hideDelayMs: 200, width: 360, height: 300, offset: 12, margin: 16 } as const;

/** Where the card goes: below its anchor, or above it when there is no room below; never past the edges. */
export function hoverCardPosition(anchor: { left: number; top: number; bottom: number }, viewport: { width: number; height: number }): { left: number; top: number } {
  const { width, height, offset, margin } = HOVER_CARD;
  const left = Math.min(Math.max(margin, anchor.left), viewport.width - width - margin);
  const below = anchor.bottom + offset;
  return { left, top: below + height > viewport.height - margin ? Math.max(margin, anchor.top - offset - height) : below };
}

function Card({ userId }: { userId: string }) {
  const me = useSession((state) => state.user?.user_id);
  const card = useQuery(userCardQuery(userId, me ?? null));
  if (!card.data) return <div className="hover-card loading" />;
  const user = card.data;
  return (
    <div className="hover-card">
      <div className="hover-head">
        <a href={`/user/${user.user_id}`} target="_blank" rel="noreferrer">
          <Avatar src={user.avatar} size={48} />
        </a>
        <div className="hover-name">
          <a href={`/user/${user.user_id}`} target="_blank" rel="noreferrer">
            {user.nickname}
          </a>
          <VerifiedBadge level={user.verified} />
        </div>
        {me !== user.user_id && <FollowButton userId={user.user_id} initial={user.buttonType} size="small" />}
      </div>
      {user.bio && <p className="hover-bio">{user.bio}</p>}
      <div className="hover-counts">
        <span>
          <b>{formatCount(user.followCount)}</b> 关注
        </span>
        <span>
          <b>{formatCount(user.fansCount)}</b> 粉丝
        </span>
        <span>
          <b>{formatCount(user.likeAndCollectCount)}</b> 获赞与收藏
        </span>
      </div>
      {user.images.length > 0 && (
        <div className="hover-covers">
          {user.images.slice(0, 3).map((src) => (
            <img key={src} src={src} alt="" loading="lazy" />
          ))}
        </div>
      )}
    </div>
  );
}

/** Shows the user hover card after a short pause over its children; pointer devices only (never on touch). */
export function UserHover({ userId, children }: { userId: string; children: ReactNode }) {
  const canHover = useMediaQuery(HOVER);
  const anchor = useRef<HTMLSpanElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [open, setOpen] = useState(false);
  const [position, setPosition] = useState<{ left: number; top: number } | null>(null);

  useLayoutEffect(() => {
    if (!open || !anchor.current) return;
    setPosition(hoverCardPosition(anchor.current.getBoundingClientRect(), { width: window.innerWidth, height: window.innerHeight }));
  }, [open]);

  if (!canHover) return <>{children}</>;
  const enter = () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setOpen(true), HOVER_CARD.showDelayMs);
  };
  const leave = () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setOpen(false), HOVER_CARD.hideDelayMs);
  };
  return (
    <span ref={anchor} className="hover-anchor" onMouseEnter={enter} onMouseLeave={leave}>
      {children}
      {open &&
        position &&
        createPortal(
          <div className="hover-layer" style={{ ...position, width: HOVER_CARD.width }} onMouseEnter={enter} onMouseLeave={leave}>
            <Card userId={userId} />
          </div>,
          document.body,
        )}
    </span>
  );
}
