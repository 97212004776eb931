import { Injectable } from '@nestjs/common';
import { adminRows, type AdminListQuery, type AdminListSpec, rowsOf } from '@shiliu/platform';
import type { EntityManager } from 'typeorm';

/** admin-and-startup.md §3 "Follow": a filter for each field the table shows. */
export const FOLLOW_LIST: AdminListSpec = {
  sortFields: { id: 'f."id"', created_at: 'f."created_at"' },
  defaultSort: 'id',
  tieBreaker: 'f."id"',
  filters: {
    follower_id: { match: 'integer', columns: ['f."follower_id"'], description: '关注者的数字 ID' },
    follower_display_id: { match: 'contains', columns: ['fr."user_id"'], description: '关注者的小石榴号包含' },
    follower_nickname: { match: 'contains', columns: ['fr."nickname"'], description: '关注者昵称包含' },
    following_id: { match: 'integer', columns: ['f."following_id"'], description: '被关注者的数字 ID' },
    following_display_id: { match: 'contains', columns: ['fg."user_id"'], description: '被关注者的小石榴号包含' },
    following_nickname: { match: 'contains', columns: ['fg."nickname"'], description: '被关注者昵称包含' },
    search: { match: 'contains', columns: ['fr."nickname"', 'fg."nickname"'], description: '任一方昵称包含' },
  },
};

export interface AdminFollowRow {
  id: string;
  follower_id: string;
  follower_display_id: string | null;
  follower_nickname: string | null;
  following_id: string;
  following_display_id: string | null;
  following_nickname: string | null;
  created_at: Date;
}

const SELECT_FOLLOWS = `
  SELECT f."id", f."follower_id", fr."user_id" AS "follower_display_id", fr."nickname" AS "follower_nickname",
    f."following_id", fg."user_id" AS "following_display_id", fg."nickname" AS "following_nickname", f."created_at"
  FROM "follows" f
  LEFT JOIN "user_cards" fr ON fr."id" = f."follower_id"
  LEFT JOIN "user_cards" fg ON fg."id" = f."following_id"`;

/** Follows as the back office lists them, with both users' names from social's own user cards. */
@Injectable()
export class AdminFollowsRepository {
  list(manager: EntityManager, query: AdminListQuery): Promise<{ rows: AdminFollowRow[]; total: number }> {
    return adminRows<AdminFollowRow>(manager, query, SELECT_FOLLOWS);
  }

  async one(manager: EntityManager, id: number): Promise<AdminFollowRow | null> {
    const [row] = await rowsOf<AdminFollowRow>(manager, `${SELECT_FOLLOWS} WHERE f."id" = $1`, [id]);
    return row ?? null;
  }

  async between(manager: EntityManager, followerId: number, followingId: number): Promise<AdminFollowRow | null> {
    const [row] = await rowsOf<AdminFollowRow>(manager, `${SELECT_FOLLOWS} WHERE f."follower_id" = $1 AND f."following_id" = $2`, [followerId, followingId]);
    return row ?? null;
  }

  /** A user card named by product ID, or by numeric id when no product ID matches. */
  async card(manager: EntityManager, userId: string): Promise<{ id: string; user_id: string } | null> {
    const [row] = await rowsOf<{ id: string; user_id: string }>(
      manager,
      `SELECT "id", "user_id" FROM "user_cards" WHERE "user_id" = $1
       UNION ALL SELECT "id", "user_id" FROM "user_cards" WHERE $1 ~ '^[0-9]{1,15}$' AND "id" = $1::bigint
       LIMIT 1`,
      [userId],
    );
    return row ?? null;
  }
}
