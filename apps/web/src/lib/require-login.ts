import { useSession } from './session';
import { toast } from './toast';

/** Says that the action needs a login and opens the login modal (public-side.md §5, §8). */
export function askToLogIn(): void {
  toast.info('请先登录');
  useSession.getState().openAuth();
}

/**
 * True when someone is logged in with a token to send; otherwise asks to log in. A stored user without a token is a
 * session that can do nothing: it is cleared first, so that the login modal (shown only to visitors) opens.
 */
export function requireLogin(): boolean {
  const { user, token } = useSession.getState();
  if (user && token) return true;
  if (user) useSession.getState().signOut();
  askToLogIn();
  return false;
}
