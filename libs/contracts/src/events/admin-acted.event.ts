import { defineEvent } from './event-definition';

/** One administrator write, whichever service it changed: the back office's audit log (who, what, when). */
export interface AdminActedPayload {
  admin_id: number;
  admin_name: string;
  /** The service that made the change. */
  service: string;
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The request path without its query, e.g. `/api/admin/posts/12`. */
  path: string;
  /** The entity named by the path: `posts`, `audit`, `admins`, … */
  entity: string;
  /** The ids the call named: the path's id, or a bulk delete's `ids`. */
  target_ids: number[];
}

export const adminActed = defineEvent<AdminActedPayload>({ type: 'admin.acted', version: 1, topic: 'shiliu.admin', key: (p) => String(p.admin_id) });
