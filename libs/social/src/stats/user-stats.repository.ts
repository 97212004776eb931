import { Injectable } from '@nestjs/common';
import { CounterTable } from '@shiliu/platform';
import type { EntityManager } from 'typeorm';

export interface Counters {
  follow_count: number;
  fans_count: number;
  post_count: number;
  like_count: number;
  collect_count: number;
}

export const counterNames: readonly (keyof Counters)[] = ['follow_count', 'fans_count', 'post_count', 'like_count', 'collect_count'];

const userStats = new CounterTable<keyof Counters>('user_stats', 'user_id', counterNames);

const zero: Counters = { follow_count: 0, fans_count: 0, post_count: 0, like_count: 0, collect_count: 0 };

/** A user whose stored counters differ from the recount: what was stored and what it should be. */
export interface Drift {
  user_id: number;
  stored: Counters;
  recounted: Counters;
}

/**
 * What each counter is, from the tables it summarises: follows, and the published notes that are not deleted.
 * The reconcile compares the stored counters with this and the integration tests check it after every scenario.
 */
const RECOUNT_SQL = `
  WITH "follow_counts" AS (SELECT "follower_id" AS "user_id", count(*)::int AS "n" FROM "follows" GROUP BY 1),
       "fans_counts" AS (SELECT "following_id" AS "user_id", count(*)::int AS "n" FROM "follows" GROUP BY 1),
       "post_counts" AS (
         SELECT "author_id" AS "user_id", count(*)::int AS "posts", sum("like_count")::int AS "likes", sum("collect_count")::int AS "collects"
         FROM "posts" WHERE "published" AND NOT "deleted" GROUP BY 1),
       "everyone" AS (SELECT "user_id" FROM "user_stats" UNION SELECT "user_id" FROM "follow_counts" UNION SELECT "user_id" FROM "fans_counts"
                      UNION SELECT "user_id" FROM "post_counts")
  SELECT "everyone"."user_id"::int AS "user_id",
         coalesce("s"."follow_count", 0) AS "stored_follow_count", coalesce("s"."fans_count", 0) AS "stored_fans_count",
         coalesce("s"."post_count", 0) AS "stored_post_count", coalesce("s"."like_count", 0) AS "stored_like_count",
         coalesce("s"."collect_count", 0) AS "stored_collect_count",
         coalesce("fo"."n", 0) AS "follow_count", coalesce("fa"."n", 0) AS "fans_count", coalesce("p"."posts", 0) AS "post_count",
         coalesce("p"."likes", 0) AS "like_count", coalesce("p"."collects", 0) AS "collect_count"
  FROM "everyone"
  LEFT JOIN "user_stats" "s" ON "s"."user_id" = "everyone"."user_id"
  LEFT JOIN "follow_counts" "fo" ON "fo"."user_id" = "everyone"."user_id"
  LEFT JOIN "fans_counts" "fa" ON "fa"."user_id" = "everyone"."user_id"
  LEFT JOIN "post_counts" "p" ON "p"."user_id" = "everyone"."user_id"
  ORDER BY 1`;

type RecountRow = { user_id: number } & Counters & { [K in keyof Counters as `stored_${K}`]: number };

/** The per-user counters of public-side.md §3 "User stats". */
@Injectable()
export class UserStatsRepository {
  /**
   * Moves a user's counters by `delta` (negative to lower them) when the transaction commits: a consumer's run
   * moving many users' counters locks them only then, in id order (`CounterTable`), and cannot deadlock with another.
   */
  move(manager: EntityManager, userId: number, delta: Partial<Counters>): void {
    userStats.move(manager, userId, delta);
  }

  /** Writes the transaction's moves so far, users in id order, for a transaction that reads the counters back. */
  apply(manager: EntityManager): Promise<void> {
    return userStats.apply(manager);
  }

  /**
   * Locks the users' counters, creating the missing rows, in id order: a transaction that then moves them in any
   * order cannot deadlock with another that locks in id order too.
   */
  async lock(manager: EntityManager, userIds: number[]): Promise<void> {
    for (const userId of [...new Set(userIds)].sort((a, b) => a - b)) {
      await manager.query(
        `INSERT INTO "user_stats" ("user_id") VALUES ($1) ON CONFLICT ("user_id") DO UPDATE SET "follow_count" = "user_stats"."follow_count"`,
        [userId],
      );
    }
  }

  async of(manager: EntityManager, userIds: number[]): Promise<Map<number, Counters>> {
    const rows: ({ user_id: string } & Counters)[] = await manager.query(
      `SELECT "user_id", ${counterNames.map((name) => `"${name}"`).join(', ')} FROM "user_stats" WHERE "user_id" = ANY($1::bigint[])`,
      [userIds],
    );
    const found = new Map(rows.map((row) => [Number(row.user_id), row]));
    return new Map(userIds.map((id) => [id, pick(found.get(id) ?? zero)]));
  }

  async one(manager: EntityManager, userId: number): Promise<Counters> {
    return (await this.of(manager, [userId])).get(userId) ?? zero;
  }

  /** Every user whose stored counters differ from a recount. */
  async drift(manager: EntityManager): Promise<Drift[]> {
    const rows: RecountRow[] = await manager.query(RECOUNT_SQL);
    return rows
      .map((row) => ({
        user_id: row.user_id,
        stored: Object.fromEntries(counterNames.map((name) => [name, row[`stored_${name}`]])) as unknown as Counters,
        recounted: pick(row),
      }))
      .filter((row) => counterNames.some((name) => row.stored[name] !== row.recounted[name]));
  }

  /** Sets drifted counters to their recount; answers what was wrong. Run inside a transaction that locks the table. */
  async reconcile(manager: EntityManager): Promise<Drift[]> {
    await manager.query(`LOCK TABLE "user_stats", "follows", "posts" IN SHARE ROW EXCLUSIVE MODE`);
    const drifts = await this.drift(manager);
    for (const { user_id, recounted } of drifts) {
      await manager.query(
        `INSERT INTO "user_stats" ("user_id", ${counterNames.map((name) => `"${name}"`).join(', ')}) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT ("user_id") DO UPDATE SET ${counterNames.map((name) => `"${name}" = EXCLUDED."${name}"`).join(', ')}`,
        [user_id, ...counterNames.map((name) => recounted[name])],
      );
    }
    return drifts;
  }
}

function pick(row: Counters): Counters {
  return Object.fromEntries(counterNames.map((name) => [name, Number(row[name])])) as unknown as Counters;
}
