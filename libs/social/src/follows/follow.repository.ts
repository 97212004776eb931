import { Injectable } from '@nestjs/common';
import { rowsOf } from '@shiliu/platform';
import type { FollowChangePayload } from '@shiliu/contracts';
import type { EntityManager } from 'typeorm';

export type FollowListKind = 'following' | 'followers' | 'mutualFollows';

export interface FollowListRow {
  id: number;
  user_id: string;
  nickname: string;
  avatar: string;
  bio: string;
  follow_count: number;
  fans_count: number;
  post_count: number;
  followed_at: Date;
}

/** Who the listed user follows, who follows them, or both; `followed_at` is when the edge (both edges) came to be. */
const LISTS: Record<FollowListKind, { joins: string; where: string; followedAt: string }> = {
  following: { joins: `JOIN "user_cards" "c" ON "c"."id" = "f"."following_id"`, where: `"f"."follower_id" = $1`, followedAt: `"f"."created_at"` },
  followers: { joins: `JOIN "user_cards" "c" ON "c"."id" = "f"."follower_id"`, where: `"f"."following_id" = $1`, followedAt: `"f"."created_at"` },
  mutualFollows: {
    joins: `JOIN "follows" "b" ON "b"."follower_id" = "f"."following_id" AND "b"."following_id" = "f"."follower_id" JOIN "user_cards" "c" ON "c"."id" = "f"."following_id"`,
    where: `"f"."follower_id" = $1`,
    followedAt: `greatest("f"."created_at", "b"."created_at")`,
  },
};

/** The follow graph: one row per (follower, following), this service's own truth. */
@Injectable()
export class FollowRepository {
  /** The next follows after `after` by id, with both users' counters as they stand, read FOR SHARE for a backfill. */
  async batchForShare(manager: EntityManager, after: number, limit: number): Promise<{ id: number; follow: FollowChangePayload }[]> {
    const rows = await rowsOf<FollowChangePayload & { id: number }>(
      manager,
      `SELECT "f"."id"::int AS "id", "f"."follower_id"::int AS "follower_id", "a"."user_id" AS "follower_user_id", "f"."following_id"::int AS "following_id", "b"."user_id" AS "following_user_id",
              coalesce("sa"."follow_count", 0) AS "follower_follow_count", coalesce("sb"."fans_count", 0) AS "following_fans_count"
         FROM "follows" "f"
         JOIN "user_cards" "a" ON "a"."id" = "f"."follower_id"
         JOIN "user_cards" "b" ON "b"."id" = "f"."following_id"
         LEFT JOIN "user_stats" "sa" ON "sa"."user_id" = "f"."follower_id"
         LEFT JOIN "user_stats" "sb" ON "sb"."user_id" = "f"."following_id"
        WHERE "f"."id" > $1
        ORDER BY "f"."id" LIMIT $2 FOR SHARE OF "f"`,
      [after, limit],
    );
    return rows.map(({ id, ...follow }) => ({ id, follow }));
  }

  /** Answers whether the edge is new. */
  async add(manager: EntityManager, followerId: number, followingId: number): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `INSERT INTO "follows" ("follower_id", "following_id") VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING "id"`,
      [followerId, followingId],
    );
    return rows.length > 0;
  }

  /** Answers whether there was an edge to remove. */
  async remove(manager: EntityManager, followerId: number, followingId: number): Promise<boolean> {
    const rows = await rowsOf(manager, `DELETE FROM "follows" WHERE "follower_id" = $1 AND "following_id" = $2 RETURNING "id"`, [followerId, followingId]);
    return rows.length > 0;
  }

  /** Removes every edge touching the user; answers them. */
  async removeAllOf(manager: EntityManager, userId: number): Promise<{ follower_id: number; following_id: number }[]> {
    return rowsOf(manager, `DELETE FROM "follows" WHERE "follower_id" = $1 OR "following_id" = $1 RETURNING "follower_id"::int, "following_id"::int`, [userId]);
  }

  /** For each of `others`: whether the viewer follows them and whether they follow the viewer. */
  async relations(manager: EntityManager, viewerId: number, others: number[]): Promise<Map<number, { viewerFollows: boolean; followsViewer: boolean }>> {
    const rows: { other: number; viewer_follows: boolean; follows_viewer: boolean }[] = await manager.query(
      `SELECT "o"::int AS "other",
              EXISTS (SELECT 1 FROM "follows" WHERE "follower_id" = $1 AND "following_id" = "o") AS "viewer_follows",
              EXISTS (SELECT 1 FROM "follows" WHERE "follower_id" = "o" AND "following_id" = $1) AS "follows_viewer"
       FROM unnest($2::bigint[]) AS "o"`,
      [viewerId, others],
    );
    return new Map(rows.map((row) => [row.other, { viewerFollows: row.viewer_follows, followsViewer: row.follows_viewer }]));
  }

  async list(manager: EntityManager, kind: FollowListKind, userId: number, limit: number, offset: number): Promise<{ rows: FollowListRow[]; total: number }> {
    const { joins, where, followedAt } = LISTS[kind];
    const [{ total }]: { total: number }[] = await manager.query(`SELECT count(*)::int AS "total" FROM "follows" "f" ${joins} WHERE ${where}`, [userId]);
    const rows: FollowListRow[] = await manager.query(
      `SELECT "c"."id"::int AS "id", "c"."user_id", "c"."nickname", "c"."avatar", "c"."bio",
              coalesce("s"."follow_count", 0) AS "follow_count", coalesce("s"."fans_count", 0) AS "fans_count",
              coalesce("s"."post_count", 0) AS "post_count", ${followedAt} AS "followed_at"
       FROM "follows" "f" ${joins} LEFT JOIN "user_stats" "s" ON "s"."user_id" = "c"."id" WHERE ${where}
       ORDER BY ${followedAt} DESC, "c"."id" DESC LIMIT $2 OFFSET $3`,
      [userId, limit, offset],
    );
    return { rows, total };
  }
}
