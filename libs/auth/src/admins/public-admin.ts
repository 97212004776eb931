import type { AdminRow } from './admin.repository';

/** What the back office shows of an administrator: never the password hash. */
export interface PublicAdmin {
  id: number;
  username: string;
  created_at: string;
  last_login_at: string | null;
}

export function publicAdmin(admin: AdminRow): PublicAdmin {
  return {
    id: Number(admin.id),
    username: admin.username,
    created_at: admin.created_at.toISOString(),
    last_login_at: admin.last_login_at?.toISOString() ?? null,
  };
}
