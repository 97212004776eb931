import { createHash } from 'node:crypto';
import type { Request } from 'express';
import type { Principal } from '@shiliu/platform';

/**
 * Who is viewing, for the one-view-per-hour rule: the user when logged in, otherwise the client address and user
 * agent (hashed: the table needs identity, not the address). `req.ip` honours the process's trust-proxy
 * setting, so behind the gateway it is the client's address, and a client cannot choose it by sending headers.
 */
export function viewerKey(req: Request, principal: Principal | undefined): string {
  if (principal) return `u:${principal.id}`;
  const address = req.ip ?? req.socket.remoteAddress ?? '';
  const agent = String(req.headers['user-agent'] ?? '');
  return `a:${createHash('sha256').update(`${address}\n${agent}`).digest('base64url').slice(0, 32)}`;
}
