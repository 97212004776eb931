import { type MouseEvent, useCallback } from 'react';
import { type Location, useLocation, useNavigate } from 'react-router';

/** The address of a note's page (also its share link's path). */
export function notePath(id: number, targetCommentId?: number): string {
  return `/post?id=${id}${targetCommentId ? `&targetCommentId=${targetCommentId}` : ''}`;
}

/**
 * A click handler for links to a note: a plain click opens the overlay above the current page (pushing
 * /post?id=… with the page as its background, and the comment to locate when given); a modified or middle click is
 * left to the browser (new tab). A note opened from inside the overlay (a related note) keeps the page below it.
 */
export function useOpenNote(): (event: MouseEvent<HTMLAnchorElement>, id: number, targetCommentId?: number) => void {
  const navigate = useNavigate();
  const location = useLocation();
  return useCallback(
    (event, id, targetCommentId) => {
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      const background = (location.state as { background?: Location } | null)?.background ?? location;
      void navigate(notePath(id, targetCommentId), { state: { background } });
    },
    [navigate, location],
  );
}
