import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { api, call } from '../lib/api/client';
import type { components } from '../lib/api/schema';
import { sharedKeys } from '../lib/api/query-keys';
import { useSession } from '../lib/session';

/** The unread counts pushed by the notification stream and answered by the unread-count calls. */
export type UnreadCounts = components['schemas']['UnreadCounts'];

/** Per-tab unread counts, shared by the badge and the notifications page's dots. */
export const UNREAD_KEY = sharedKeys.unread;

/**
 * Start-up: the user is restored from storage at once and refreshed from /auth/me when a token exists. While
 * logged in, the unread counts come from the notification stream (SSE, no polling): once when it opens and on
 * every change; a 'shiliu:unread' event (leaving /notification) fetches them once more.
 */
export function useSessionStart(): void {
  const token = useSession((state) => state.token);
  const client = useQueryClient();
  const signedIn = useRef(Boolean(token));
  useEffect(() => {
    if (!useSession.getState().token) return;
    call(api.GET('/api/auth/me'))
      // The user's token answers the user; an administrator's would answer the administrator, not a user to keep.
      .then((me) => {
        if ('user_id' in me) useSession.getState().setUser(me);
      })
      .catch(() => undefined);
  }, []);
  useEffect(() => {
    if (!token) {
      useSession.getState().setUnread(0);
      client.removeQueries({ queryKey: sharedKeys.notifications });
      // Whatever was read as the student who just left (red hearts, follow buttons) is read again as a visitor.
      if (signedIn.current) void client.resetQueries();
      signedIn.current = false;
      return;
    }
    signedIn.current = true;
    let cancelled = false;
    const apply = (counts: UnreadCounts) => {
      if (cancelled) return;
      useSession.getState().setUnread(counts.total ?? counts.count ?? 0);
      client.setQueryData(UNREAD_KEY, counts);
    };
    const load = () =>
      call(api.GET('/api/notifications/unread-count-by-type'))
        .then(apply)
        .catch(() => undefined);
    void load();
    window.addEventListener('shiliu:unread', load);
    // The stream opens with a single-use ticket, never the token (a URL ends up in logs). The server ends it when the
    // token expires or the session is revoked; EventSource would retry with the spent ticket, so a stream that
    // fails or ends is closed and opened again with a new ticket (whose call refreshes an expired token).
    let stream: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    const reopen = () => {
      if (cancelled) return;
      retry = setTimeout(open, Math.min(30_000, 1000 * 2 ** failures++));
    };
    const open = () => {
      if (cancelled || typeof EventSource === 'undefined') return;
      call(api.POST('/api/notifications/stream/ticket'))
        .then(({ ticket }) => {
          if (cancelled) return;
          const opened = new EventSource(`/api/notifications/stream?ticket=${encodeURIComponent(ticket)}`);
          stream = opened;
          opened.addEventListener('open', () => {
            failures = 0;
          });
          opened.addEventListener('unread', (event) => {
            try {
              apply(JSON.parse((event as MessageEvent<string>).data) as UnreadCounts);
            } catch {
              // A malformed event is skipped; the next one carries the full counts again.
            }
          });
          opened.addEventListener('error', () => {
            opened.close();
            reopen();
          });
        })
        .catch(reopen);
    };
    open();
    return () => {
      cancelled = true;
      clearTimeout(retry);
      stream?.close();
      window.removeEventListener('shiliu:unread', load);
    };
  }, [token, client]);
}

/**
 * Ends the session: cleared here first, so that no call answered 401 on the way tries to refresh it, then the server
 * is told with the token it had.
 */
export async function endSession(): Promise<void> {
  const { token } = useSession.getState();
  useSession.getState().signOut();
  if (token) await call(api.POST('/api/auth/logout', { headers: { Authorization: `Bearer ${token}` } })).catch(() => undefined);
}

/** Logs out: ends the session and reloads on the home page. */
export async function logout(): Promise<void> {
  await endSession();
  window.location.assign('/explore');
}
