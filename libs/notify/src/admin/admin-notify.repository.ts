import { Injectable } from '@nestjs/common';
import type { AdminActedPayload } from '@shiliu/contracts';
import { adminRows, type AdminListQuery, type AdminListSpec, rowsOf } from '@shiliu/platform';
import type { EntityManager } from 'typeorm';
import { titles } from '../notifications/notification-type';
import type { UnreadMove } from '../notifications/unread-count.repository';

/**
 * The title the list shows, as SQL, so that the title filter matches what the table says: the administrator's own
 * for a notification made by hand, else what its type says, with the note's title where it has one.
 */
const NOTIFICATION_TITLE = `COALESCE(n."title", CASE n."type" ${Object.entries(titles)
  .map(([type, said]) => `WHEN ${Number(type)} THEN '${said}'`)
  .join(' ')} END || COALESCE('《' || NULLIF(p."title", '') || '》', ''))`;

/** admin-and-startup.md §3 "Notification": a filter for each field the table shows. Hidden notifications (undone, or deleted by their recipient) are not listed. */
export const NOTIFICATION_LIST: AdminListSpec = {
  sortFields: { id: 'n."id"', created_at: 'n."created_at"' },
  defaultSort: 'id',
  tieBreaker: 'n."id"',
  filters: {
    user_id: { match: 'integer', columns: ['n."user_id"'], description: '接收者的数字 ID' },
    user_display_id: { match: 'contains', columns: ['u."user_id"'], description: '接收者的小石榴号包含' },
    sender_id: { match: 'integer', columns: ['n."sender_id"'], description: '发送者的数字 ID' },
    sender_display_id: { match: 'contains', columns: ['s."user_id"'], description: '发送者的小石榴号包含' },
    sender_nickname: { match: 'contains', columns: ['s."nickname"'], description: '发送者昵称包含' },
    type: { match: 'integer', columns: ['n."type"'], description: '类型 1-8（见通知类型表）' },
    title: { match: 'contains', columns: [NOTIFICATION_TITLE], description: '标题包含' },
    target_id: { match: 'integer', columns: ['n."target_id"'], description: '目标 ID' },
    comment_id: { match: 'integer', columns: ['n."comment_id"'], description: '评论 ID' },
    is_read: { match: 'boolean', columns: ['n."is_read"'], description: '是否已读' },
  },
};

/** The administrators' audit log. */
export const ADMIN_ACTION_LIST: AdminListSpec = {
  sortFields: { id: '"id"', created_at: '"created_at"' },
  defaultSort: 'id',
  tieBreaker: '"id"',
  filters: {
    admin_name: { match: 'equals', columns: ['"admin_name"'], description: '管理员用户名' },
    entity: { match: 'equals', columns: ['"entity"'], description: '对象：users、posts、comments、audit 等' },
    service: { match: 'equals', columns: ['"service"'], description: '处理的服务' },
    method: { match: 'equals', columns: ['"method"'], description: 'POST、PUT 或 DELETE' },
  },
};

export interface AdminNotificationRow {
  id: string;
  user_id: string;
  user_display_id: string | null;
  sender_id: string;
  sender_display_id: string | null;
  sender_nickname: string | null;
  type: number;
  title: string;
  target_id: string;
  post_id: string | null;
  comment_id: string | null;
  is_read: boolean;
  created_at: Date;
}

export interface AdminActionRow {
  id: string;
  admin_id: string;
  admin_name: string;
  service: string;
  method: string;
  path: string;
  entity: string;
  target_ids: number[];
  created_at: Date;
}

const SELECT_NOTIFICATIONS = `
  SELECT n."id", n."user_id", u."user_id" AS "user_display_id", n."sender_id", s."user_id" AS "sender_display_id", s."nickname" AS "sender_nickname",
    n."type", ${NOTIFICATION_TITLE} AS "title", n."target_id", n."post_id", n."comment_id", n."is_read", n."created_at"
  FROM "notifications" n
  LEFT JOIN "users" u ON u."id" = n."user_id"
  LEFT JOIN "users" s ON s."id" = n."sender_id"
  LEFT JOIN "posts" p ON p."id" = n."post_id"`;
const VISIBLE = `n."hidden_by" IS NULL`;

/** Notifications as the back office lists and changes them (unread counters move with them), and the audit log. */
@Injectable()
export class AdminNotifyRepository {
  notifications(manager: EntityManager, query: AdminListQuery): Promise<{ rows: AdminNotificationRow[]; total: number }> {
    const where = query.where ? `${query.where} AND ${VISIBLE}` : `WHERE ${VISIBLE}`;
    return adminRows<AdminNotificationRow>(manager, { ...query, where }, SELECT_NOTIFICATIONS);
  }

  async notification(manager: EntityManager, id: number): Promise<AdminNotificationRow | null> {
    const [row] = await rowsOf<AdminNotificationRow>(manager, `${SELECT_NOTIFICATIONS} WHERE n."id" = $1 AND ${VISIBLE}`, [id]);
    return row ?? null;
  }

  async find(manager: EntityManager, userId: number, senderId: number, type: number, targetId: number): Promise<AdminNotificationRow | null> {
    const [row] = await rowsOf<AdminNotificationRow>(
      manager,
      `${SELECT_NOTIFICATIONS} WHERE n."user_id" = $1 AND n."sender_id" = $2 AND n."type" = $3 AND n."target_id" = $4 AND ${VISIBLE}`,
      [userId, senderId, type, targetId],
    );
    return row ?? null;
  }

  async setTitle(manager: EntityManager, id: string, title: string): Promise<void> {
    await manager.query(`UPDATE "notifications" SET "title" = $2 WHERE "id" = $1`, [id, title]);
  }

  /** Answers the unread counter move the change makes (none when the state was already so). */
  async setRead(manager: EntityManager, id: number, read: boolean): Promise<UnreadMove[]> {
    return rowsOf<UnreadMove>(
      manager,
      `UPDATE "notifications" n SET "is_read" = $2 WHERE n."id" = $1 AND ${VISIBLE} AND n."is_read" <> $2
       RETURNING n."user_id", n."type", CASE WHEN $2 THEN -1 ELSE 1 END AS "delta"`,
      [id, read],
    );
  }

  /** Hidden for good, as when the recipient deletes it; answers the counter moves and whether it was there. */
  async dismiss(manager: EntityManager, id: number): Promise<{ found: boolean; moves: UnreadMove[] }> {
    const hidden = await rowsOf<{ user_id: string; type: number; is_read: boolean }>(
      manager,
      `UPDATE "notifications" n SET "hidden_by" = 'owner' WHERE n."id" = $1 AND ${VISIBLE} RETURNING n."user_id", n."type", n."is_read"`,
      [id],
    );
    return { found: hidden.length > 0, moves: hidden.filter((row) => !row.is_read).map((row) => ({ user_id: row.user_id, type: row.type, delta: -1 })) };
  }

  async userByProductId(manager: EntityManager, userId: string): Promise<{ id: string } | null> {
    const [row] = await rowsOf<{ id: string }>(
      manager,
      `SELECT "id" FROM "users" WHERE "user_id" = $1 AND NOT "deleted"
       UNION ALL SELECT "id" FROM "users" WHERE $1 ~ '^[0-9]{1,15}$' AND "id" = $1::bigint AND NOT "deleted"
       LIMIT 1`,
      [userId],
    );
    return row ?? null;
  }

  /** An event delivered twice records one entry. */
  async recordAction(manager: EntityManager, eventId: string, action: AdminActedPayload, at: string): Promise<void> {
    await rowsOf(
      manager,
      `INSERT INTO "admin_actions" ("event_id", "admin_id", "admin_name", "service", "method", "path", "entity", "target_ids", "created_at")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT ("event_id") DO NOTHING`,
      [eventId, action.admin_id, action.admin_name, action.service, action.method, action.path, action.entity, JSON.stringify(action.target_ids), at],
    );
  }

  actions(manager: EntityManager, query: AdminListQuery): Promise<{ rows: AdminActionRow[]; total: number }> {
    return adminRows<AdminActionRow>(
      manager,
      query,
      `SELECT "id", "admin_id", "admin_name", "service", "method", "path", "entity", "target_ids", "created_at" FROM "admin_actions"`,
    );
  }
}
