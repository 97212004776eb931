/** The audience claim of an administrator's access token (the server's audienceClaim.admin). */
const ADMIN_AUDIENCE = 'shiliu-admin';

function claims(token: string): { aud?: string | string[]; exp?: number } | null {
  try {
    const payload = token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
    return JSON.parse(atob(payload.padEnd(Math.ceil(payload.length / 4) * 4, '='))) as { aud?: string | string[]; exp?: number };
  } catch {
    return null;
  }
}

/**
 * Whether the stored token may open the console (§2.3), read from its claims before any call: none stored; not an
 * administrator's (a student's token under admin_token); expired with no refresh token to renew it; or usable (the
 * server still has the last word, and a 401 later ends the session).
 */
export function adminTokenState(token: string | null, refreshToken: string | null, now = Date.now()): 'none' | 'foreign' | 'expired' | 'ok' {
  if (!token) return 'none';
  const found = claims(token);
  if (!found) return 'foreign';
  const audiences = Array.isArray(found.aud) ? found.aud : [found.aud];
  if (!audiences.includes(ADMIN_AUDIENCE)) return 'foreign';
  if (found.exp !== undefined && found.exp * 1000 <= now && !refreshToken) return 'expired';
  return 'ok';
}
