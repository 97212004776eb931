import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, call } from '../lib/api/client';
import type { components } from '../lib/api/schema';
import { useSession } from '../lib/session';

/** The unread counts pushed by the notification stream and answered by the unread-count calls. */
export type UnreadCounts = components['schemas']['UnreadCounts'];

/** Per-tab unread counts, shared by the badge and the notifications page's dots. */
export const UNREAD_KEY = ['notifications', 'unread'] as const;

/**
 * Start-up: the user is restored from storage at once and refreshed from /auth/me when a token exists. While
 * logged in, the unread counts come from the notification stream (SSE, no polling): once when it opens and on
 * every change; a 'shiliu:unread' event (leaving /notification) fetches them once more.
 */
export function useSessionStart(): void {
  const token = useSession((state) => state.token);
  const client = useQueryClient();
  useEffect(() => {
    if (!useSession.getState().token) return;
    call(api.GET('/api/auth/me'))
      .then((user) => useSession.getState().setUser(user))
      .catch(() => undefined);
  }, []);
  useEffect(() => {
    if (!token) {
      useSession.getState().setUnread(0);
      client.removeQueries({ queryKey: ['notifications'] });
      return;
    }
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
    const stream = typeof EventSource === 'undefined' ? null : new EventSource(`/api/notifications/stream?access_token=${encodeURIComponent(token)}`);
    stream?.addEventListener('unread', (event) => {
      try {
        apply(JSON.parse((event as MessageEvent<string>).data) as UnreadCounts);
      } catch {
        // A malformed event is skipped; the next one carries the full counts again.
      }
    });
    return () => {
      cancelled = true;
      stream?.close();
      window.removeEventListener('shiliu:unread', load);
    };
  }, [token, client]);
}

/** Logs out: tells the server, clears the session and every cached list, and reloads on the home page. */
export async function logout(): Promise<void> {
  await call(api.POST('/api/auth/logout')).catch(() => undefined);
  useSession.getState().signOut();
  window.location.assign('/explore');
}
