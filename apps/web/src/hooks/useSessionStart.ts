import { useEffect } from 'react';
import { api, call } from '../lib/api/client';
import { useSession } from '../lib/session';

/**
 * Start-up: the user is restored from storage at once and refreshed from /auth/me when a token exists; the
 * unread count is fetched whenever the user is logged in (a 404 while notifications are not served counts as 0).
 */
export function useSessionStart(): void {
  const token = useSession((state) => state.token);
  useEffect(() => {
    if (!useSession.getState().token) return;
    call(api.GET('/api/auth/me'))
      .then((user) => useSession.getState().setUser(user))
      .catch(() => undefined);
  }, []);
  useEffect(() => {
    if (!token) {
      useSession.getState().setUnread(0);
      return;
    }
    let cancelled = false;
    const load = () =>
      fetch('/api/notifications/unread-count', { headers: { Authorization: `Bearer ${token}` } })
        .then(async (answer) => (answer.ok ? ((await answer.json()) as { data?: { count?: number; total?: number } }).data : null))
        .then((data) => !cancelled && useSession.getState().setUnread(data?.total ?? data?.count ?? 0))
        .catch(() => undefined);
    void load();
    window.addEventListener('shiliu:unread', load);
    return () => {
      cancelled = true;
      window.removeEventListener('shiliu:unread', load);
    };
  }, [token]);
}

/** Logs out: tells the server, clears the session and every cached list, and reloads on the home page. */
export async function logout(): Promise<void> {
  await call(api.POST('/api/auth/logout')).catch(() => undefined);
  useSession.getState().signOut();
  window.location.assign('/explore');
}
