import { createHash } from 'node:crypto';
import type { Principal } from '@shiliu/platform';

/**
 * Who is viewing, for the one-view-per-hour rule: the user when logged in, otherwise the client address and user
 * agent (hashed: the table needs identity, not the address). The address is the one the process's trust-proxy
 * setting gives (the request's `ip`), so behind the gateway it is the client's, and a client cannot choose it by
 * sending headers.
 */
export function viewerKey(address: string, userAgent: string | undefined, principal: Principal | null | undefined): string {
  if (principal) return `u:${principal.id}`;
  return `a:${createHash('sha256').update(`${address}\n${userAgent ?? ''}`).digest('base64url').slice(0, 32)}`;
}
