import { useSession } from './session';
import { toast } from './toast';

/** True when someone is logged in; otherwise says so and opens the login modal. */
export function requireLogin(): boolean {
  if (useSession.getState().user) return true;
  toast.info('请先登录');
  useSession.getState().openAuth();
  return false;
}
