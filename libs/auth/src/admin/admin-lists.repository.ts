import { Injectable } from '@nestjs/common';
import { adminRows, type AdminListQuery, type AdminListSpec, rowsOf } from '@shiliu/platform';
import type { EntityManager } from 'typeorm';
import type { UserRow } from '../users/user.repository';
import type { ApplicationRow } from '../verification/verification.repository';

/** admin-and-startup.md §3 "User (admin list)" and §7: a filter for each field the table shows, and search; sort by id, counts or created_at. */
export const USER_LIST: AdminListSpec = {
  sortFields: {
    id: 'u."id"',
    created_at: 'u."created_at"',
    nickname: 'u."nickname"',
    user_id: 'u."user_id"',
    follow_count: 'COALESCE(c."follow_count", 0)',
    fans_count: 'COALESCE(c."fans_count", 0)',
    like_count: 'COALESCE(l."like_count", 0)',
  },
  defaultSort: 'id',
  tieBreaker: 'u."id"',
  filters: {
    search: { match: 'contains', columns: ['u."nickname"', 'u."user_id"'], description: '昵称或小石榴号包含' },
    user_id: { match: 'contains', columns: ['u."user_id"'], description: '小石榴号包含' },
    user_display_id: { match: 'contains', columns: ['u."user_id"'], description: '小石榴号包含' },
    nickname: { match: 'contains', columns: ['u."nickname"'], description: '昵称包含' },
    bio: { match: 'contains', columns: ['u."bio"'], description: '简介包含' },
    location: { match: 'contains', columns: ['u."location"'], description: 'IP属地包含' },
    verified: { match: 'integer', columns: ['u."verified"'], description: '认证：0 未认证，1 官方认证，2 个人认证' },
    is_active: { match: 'boolean', columns: ['u."is_active"'], description: '是否可以登录' },
  },
};

/** §7 audit filters (type, status, user_display_id, real_name) and the table's other fields. */
export const AUDIT_LIST: AdminListSpec = {
  sortFields: { id: 'a."id"', created_at: 'a."created_at"', audit_time: 'a."reviewed_at"', status: 'a."status"' },
  defaultSort: 'id',
  tieBreaker: 'a."id"',
  filters: {
    type: { match: 'integer', columns: ['a."type"'], description: '认证类型：1 官方认证，2 个人认证' },
    status: { match: 'integer', columns: ['a."status"'], description: '状态：0 待审核，1 已通过，2 已拒绝' },
    user_display_id: { match: 'contains', columns: ['u."user_id"'], description: '申请人的小石榴号包含' },
    nickname: { match: 'contains', columns: ['u."nickname"'], description: '申请人的昵称包含' },
    content: { match: 'contains', columns: [`a."content"->>'real_name'`, `a."content"->>'org_name'`, `a."content"->>'contact_name'`, `a."content"->>'occupation'`, `a."content"->>'reason'`], description: '申请内容（姓名、机构、职业、理由）包含' },
    reject_reason: { match: 'contains', columns: ['a."reject_reason"'], description: '拒绝原因包含' },
    real_name: { match: 'contains', columns: [`a."content"->>'real_name'`, `a."content"->>'contact_name'`], description: '真实姓名（官方认证为联系人姓名）包含' },
  },
};

export const SESSION_LIST: AdminListSpec = {
  sortFields: { id: 's."created_at"', created_at: 's."created_at"', expires_at: 's."expires_at"' },
  defaultSort: 'created_at',
  tieBreaker: 's."id"',
  filters: {
    user_id: { match: 'integer', columns: ['u."id"'], description: '用户的数字 ID' },
    user_display_id: { match: 'contains', columns: ['u."user_id"'], description: '用户的小石榴号包含' },
    user_agent: { match: 'contains', columns: ['s."user_agent"'], description: '设备包含' },
    is_active: { match: 'boolean', columns: [`(s."revoked_at" IS NULL AND s."expires_at" > now())`], description: '是否有效' },
  },
};

export const ADMIN_LIST: AdminListSpec = {
  sortFields: { id: '"id"', created_at: '"created_at"', username: '"username"' },
  defaultSort: 'id',
  tieBreaker: '"id"',
  filters: { username: { match: 'contains', columns: ['"username"'], description: '用户名包含' } },
};

const SELECT_USERS = `
  SELECT u."id", u."user_id", u."nickname", u."avatar", u."bio", u."location", u."verified", u."gender", u."zodiac_sign", u."mbti",
    u."education", u."major", u."interests", u."is_active", u."created_at",
    COALESCE(c."follow_count", 0) AS "follow_count", COALESCE(c."fans_count", 0) AS "fans_count", COALESCE(l."like_count", 0)::int AS "like_count"
  FROM "users" u LEFT JOIN "user_counters" c ON c."user_id" = u."id"
  LEFT JOIN LATERAL (SELECT sum(p."like_count") AS "like_count" FROM "post_likes" p WHERE p."author_id" = u."id" AND NOT p."deleted") l ON true`;

const SELECT_SESSIONS = `
  SELECT s."id", u."id" AS "user_id", u."user_id" AS "user_display_id", s."user_agent",
    (s."revoked_at" IS NULL AND s."expires_at" > now()) AS "is_active", s."expires_at", s."created_at"
  FROM "sessions" s JOIN "users" u ON s."audience" = 'user' AND u."id" = s."subject_id"`;

/** A user as the back office lists them: the account, whether it may sign in, social's counts and the likes content announced, kept here. */
export interface AdminUserRow extends UserRow {
  is_active: boolean;
  follow_count: number;
  fans_count: number;
  like_count: number;
}

export interface AdminApplicationRow extends ApplicationRow {
  user_display_id: string;
  nickname: string;
}

export interface AdminSessionRow {
  id: string;
  user_id: string;
  user_display_id: string;
  user_agent: string | null;
  is_active: boolean;
  expires_at: Date;
  created_at: Date;
}

export interface AdminAccountRow {
  id: string;
  username: string;
  created_at: Date;
  last_login_at: Date | null;
}

/** The back office's lists of auth's own tables, filtered and sorted as parsed by `parseAdminList`. */
@Injectable()
export class AdminListsRepository {
  async users(manager: EntityManager, query: AdminListQuery): Promise<{ rows: AdminUserRow[]; total: number }> {
    return adminRows<AdminUserRow>(manager, query, SELECT_USERS);
  }

  async user(manager: EntityManager, id: string): Promise<AdminUserRow | null> {
    const [row] = await rowsOf<AdminUserRow>(manager, `${SELECT_USERS} WHERE u."id" = $1`, [id]);
    return row ?? null;
  }

  async applications(manager: EntityManager, query: AdminListQuery): Promise<{ rows: AdminApplicationRow[]; total: number }> {
    return adminRows<AdminApplicationRow>(
      manager,
      query,
      `SELECT a."id", a."account_id", a."type", a."status", a."content", a."reject_reason", a."created_at", a."reviewed_at",
              u."user_id" AS "user_display_id", u."nickname"
       FROM "verification_applications" a JOIN "users" u ON u."id" = a."account_id"`,
    );
  }

  async sessions(manager: EntityManager, query: AdminListQuery): Promise<{ rows: AdminSessionRow[]; total: number }> {
    return adminRows<AdminSessionRow>(manager, query, SELECT_SESSIONS);
  }

  async session(manager: EntityManager, id: string): Promise<AdminSessionRow | null> {
    const [row] = await rowsOf<AdminSessionRow>(manager, `${SELECT_SESSIONS} WHERE s."id" = $1`, [id]);
    return row ?? null;
  }

  /** The user named by product ID (any case) or numeric id. */
  async userByReference(manager: EntityManager, reference: string): Promise<{ id: string; user_id: string; is_active: boolean } | null> {
    const [row] = await rowsOf<{ id: string; user_id: string; is_active: boolean }>(
      manager,
      `SELECT "id", "user_id", "is_active" FROM "users" WHERE lower("user_id") = lower($1)
       UNION ALL SELECT "id", "user_id", "is_active" FROM "users" WHERE $1 ~ '^[0-9]{1,15}$' AND "id" = $1::bigint
       LIMIT 1`,
      [reference],
    );
    return row ?? null;
  }

  async usersByUserIds(manager: EntityManager, userIds: readonly string[]): Promise<AdminUserRow[]> {
    return rowsOf<AdminUserRow>(manager, `${SELECT_USERS} WHERE lower(u."user_id") = ANY($1::text[]) ORDER BY u."id"`, [userIds.map((id) => id.toLowerCase())]);
  }

  async admins(manager: EntityManager, query: AdminListQuery): Promise<{ rows: AdminAccountRow[]; total: number }> {
    return adminRows<AdminAccountRow>(manager, query, `SELECT "id", "username", "created_at", "last_login_at" FROM "admins"`);
  }

  async applicationOf(manager: EntityManager, id: string): Promise<ApplicationRow | null> {
    const [row] = await rowsOf<ApplicationRow>(
      manager,
      `SELECT "id", "account_id", "type", "status", "content", "reject_reason", "created_at", "reviewed_at" FROM "verification_applications" WHERE "id" = $1`,
      [id],
    );
    return row ?? null;
  }

  async deleteApplication(manager: EntityManager, id: string): Promise<boolean> {
    return (await rowsOf(manager, `DELETE FROM "verification_applications" WHERE "id" = $1 RETURNING "id"`, [id])).length > 0;
  }

  async setApplicationStatus(manager: EntityManager, id: string, status: 0 | 1 | 2, rejectReason: string | null): Promise<void> {
    await rowsOf(
      manager,
      `UPDATE "verification_applications" SET "status" = $2::smallint, "reject_reason" = $3, "reviewed_at" = CASE WHEN $2::smallint = 0 THEN NULL ELSE now() END WHERE "id" = $1`,
      [id, status, rejectReason],
    );
  }

  async userSession(manager: EntityManager, id: string): Promise<{ id: string; subject_id: string } | null> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
    const [row] = await rowsOf<{ id: string; subject_id: string }>(manager, `SELECT "id", "subject_id" FROM "sessions" WHERE "id" = $1 AND "audience" = 'user'`, [id]);
    return row ?? null;
  }

  /** Answers false when the product ID is taken by someone else. */
  async setUserIdentity(manager: EntityManager, id: string, userId: string, location: string): Promise<boolean> {
    const taken = await rowsOf(manager, `SELECT 1 FROM "users" WHERE lower("user_id") = lower($1) AND "id" <> $2`, [userId, id]);
    if (taken.length > 0) return false;
    await rowsOf(manager, `UPDATE "users" SET "user_id" = $2, "location" = $3, "updated_at" = now() WHERE "id" = $1`, [id, userId, location]);
    return true;
  }

  async deleteSession(manager: EntityManager, id: string): Promise<void> {
    await rowsOf(manager, `DELETE FROM "sessions" WHERE "id" = $1`, [id]);
  }

  async setActive(manager: EntityManager, id: string, active: boolean): Promise<void> {
    await rowsOf(manager, `UPDATE "users" SET "is_active" = $2, "updated_at" = now() WHERE "id" = $1`, [id, active]);
  }
}
