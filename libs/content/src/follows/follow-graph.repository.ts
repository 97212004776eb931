import { Injectable } from '@nestjs/common';
import { rowsOf } from '@shiliu/platform';
import { DataSource, type EntityManager } from 'typeorm';

/** A student suggested to follow, with whether they already follow the viewer. */
export interface SuggestionRow {
  id: string;
  user_id: string;
  nickname: string;
  avatar: string;
  verified: number;
  fans_count: number;
  follows_viewer: boolean;
}

/**
 * Who follows whom and how many fans each user has, as social's events tell it (migration FollowGraph): the 关注
 * feed and the suggestions read these, never social's tables. A row gives way only to a newer event.
 */
@Injectable()
export class FollowGraphRepository {
  constructor(private readonly dataSource: DataSource) {}

  async remember(manager: EntityManager, followerId: number, followingId: number, active: boolean, occurredAt: string): Promise<void> {
    await rowsOf(
      manager,
      `INSERT INTO "follows" ("follower_id", "following_id", "active", "as_of") VALUES ($1, $2, $3, $4)
       ON CONFLICT ("follower_id", "following_id") DO UPDATE SET "active" = EXCLUDED."active", "as_of" = EXCLUDED."as_of"
       WHERE "follows"."as_of" <= EXCLUDED."as_of"`,
      [followerId, followingId, active, occurredAt],
    );
  }

  async countFans(manager: EntityManager, userId: number, fansCount: number, occurredAt: string): Promise<void> {
    await rowsOf(
      manager,
      `INSERT INTO "fans_counts" ("user_id", "fans_count", "as_of") VALUES ($1, $2, $3)
       ON CONFLICT ("user_id") DO UPDATE SET "fans_count" = EXCLUDED."fans_count", "as_of" = EXCLUDED."as_of"
       WHERE "fans_counts"."as_of" <= EXCLUDED."as_of"`,
      [userId, fansCount, occurredAt],
    );
  }

  /** A deleted account follows no one and is followed by no one. */
  async forgetUser(manager: EntityManager, userId: number): Promise<void> {
    await rowsOf(manager, `DELETE FROM "follows" WHERE "follower_id" = $1 OR "following_id" = $1`, [userId]);
    await rowsOf(manager, `DELETE FROM "fans_counts" WHERE "user_id" = $1`, [userId]);
  }

  async followCount(viewerId: string): Promise<number> {
    const [row] = await rowsOf<{ count: number }>(this.dataSource, `SELECT count(*)::int AS "count" FROM "follows" WHERE "follower_id" = $1 AND "active"`, [viewerId]);
    return row.count;
  }

  /**
   * The most followed students the viewer does not follow yet, leaving out `excluded`; with `interestsOnly`, only
   * those with a published note in a category of a note the viewer liked or collected. Walks the fans ranking down
   * until it has `limit`.
   */
  async suggestions(viewerId: string, limit: number, interestsOnly: boolean, excluded: string[]): Promise<SuggestionRow[]> {
    return rowsOf<SuggestionRow>(
      this.dataSource,
      `WITH "interests" AS (
         SELECT DISTINCT p."category_id" FROM "posts" p
          WHERE p."category_id" IS NOT NULL AND NOT p."is_draft"
            AND (p."id" IN (SELECT "target_id" FROM "likes" WHERE "user_id" = $1 AND "target_type" = 1)
              OR p."id" IN (SELECT "post_id" FROM "collections" WHERE "user_id" = $1)))
       SELECT a."id", a."user_id", a."nickname", a."avatar", a."verified", f."fans_count",
         EXISTS (SELECT 1 FROM "follows" b WHERE b."follower_id" = a."id" AND b."following_id" = $1 AND b."active") AS "follows_viewer"
       FROM "fans_counts" f JOIN "authors" a ON a."id" = f."user_id"
       WHERE f."fans_count" > 0 AND a."id" <> $1 AND NOT (a."id" = ANY($4::bigint[]))
         AND NOT EXISTS (SELECT 1 FROM "follows" m WHERE m."follower_id" = $1 AND m."following_id" = a."id" AND m."active")
         AND (NOT $3::boolean OR EXISTS (
           SELECT 1 FROM "posts" q WHERE q."author_id" = a."id" AND NOT q."is_draft" AND q."category_id" IN (SELECT "category_id" FROM "interests")))
       ORDER BY f."fans_count" DESC, f."user_id"
       LIMIT $2`,
      [viewerId, limit, interestsOnly, excluded],
    );
  }
}
