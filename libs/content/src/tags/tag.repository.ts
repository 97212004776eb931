import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { containsPattern } from '../shared/sql';

export interface TagRow {
  id: number;
  name: string;
  use_count: number;
}

export interface HotTagRow extends TagRow {
  recent_count: number;
}

/** How far back "recently" reaches for hot tags. */
export const HOT_TAG_WINDOW_DAYS = 30;

@Injectable()
export class TagRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** A note's tags in their order. */
  async namesOfPost(manager: EntityManager, postId: number): Promise<string[]> {
    const rows: { name: string }[] = await manager.query(`SELECT t."name" FROM "post_tags" pt JOIN "tags" t ON t."id" = pt."tag_id" WHERE pt."post_id" = $1 ORDER BY pt."position"`, [postId]);
    return rows.map((row) => row.name);
  }

  /**
   * Gives a note exactly these tags, in this order, creating the ones used for the first time (names match
   * regardless of case). Answers the ids of every tag whose use count may have changed.
   */
  async setPostTags(manager: EntityManager, postId: number, names: string[]): Promise<number[]> {
    const before: { tag_id: number }[] = await manager.query(`SELECT "tag_id" FROM "post_tags" WHERE "post_id" = $1`, [postId]);
    await manager.query(`DELETE FROM "post_tags" WHERE "post_id" = $1`, [postId]);
    let ids: number[] = [];
    if (names.length > 0) {
      await manager.query(`INSERT INTO "tags" ("name") SELECT unnest($1::text[]) ON CONFLICT ((lower("name"))) DO NOTHING`, [names]);
      const rows: { id: number; key: string }[] = await manager.query(`SELECT "id", lower("name") AS "key" FROM "tags" WHERE lower("name") = ANY($1::text[])`, [
        names.map((name) => name.toLowerCase()),
      ]);
      const byKey = new Map(rows.map((row) => [row.key, row.id]));
      ids = names.map((name) => byKey.get(name.toLowerCase())).filter((id): id is number => id !== undefined);
      await manager.query(`INSERT INTO "post_tags" ("post_id", "tag_id", "position") SELECT $1, t.id, t.pos FROM unnest($2::int[]) WITH ORDINALITY AS t(id, pos)`, [postId, ids]);
    }
    return [...new Set([...before.map((row) => row.tag_id), ...ids])];
  }

  async tagIdsOfPosts(manager: EntityManager, postIds: number[]): Promise<number[]> {
    if (postIds.length === 0) return [];
    const rows: { tag_id: number }[] = await manager.query(`SELECT DISTINCT "tag_id" FROM "post_tags" WHERE "post_id" = ANY($1::bigint[])`, [postIds]);
    return rows.map((row) => row.tag_id);
  }

  /** A tag's use count is the number of published notes carrying it (drafts are nobody else's business). */
  async recount(manager: EntityManager, tagIds: number[]): Promise<void> {
    if (tagIds.length === 0) return;
    // The tags' rows are locked (in id order) before the count, which then runs as a new statement with a fresh
    // snapshot: a concurrent tagging that committed while we waited is counted, so use_count cannot drift. The lock
    // is the one the UPDATE takes anyway (NO KEY UPDATE), so it does not conflict with post_tags' foreign keys.
    await manager.query(`SELECT 1 FROM "tags" WHERE "id" = ANY($1::int[]) ORDER BY "id" FOR NO KEY UPDATE`, [tagIds]);
    await manager.query(
      `UPDATE "tags" t SET "use_count" = (
         SELECT count(*) FROM "post_tags" pt JOIN "posts" p ON p."id" = pt."post_id" WHERE pt."tag_id" = t."id" AND NOT p."is_draft")
       WHERE t."id" = ANY($1::int[])`,
      [tagIds],
    );
  }

  list(keyword: string | undefined, limit: number): Promise<TagRow[]> {
    const params: unknown[] = [limit];
    let where = `"use_count" > 0`;
    if (keyword) {
      params.push(containsPattern(keyword));
      where += ` AND "name" ILIKE $2`;
    }
    return this.dataSource.query(`SELECT "id", "name", "use_count" FROM "tags" WHERE ${where} ORDER BY "use_count" DESC, "id" LIMIT $1`, params);
  }

  /** Most used by notes of the last weeks; all-time use breaks ties and fills up when few notes are recent. */
  hot(limit: number): Promise<HotTagRow[]> {
    return this.dataSource.query(
      `SELECT t."id", t."name", t."use_count", COALESCE(r."recent", 0)::int AS "recent_count"
       FROM "tags" t
       LEFT JOIN (
         SELECT pt."tag_id", count(*) AS "recent" FROM "post_tags" pt
         JOIN "posts" p ON p."id" = pt."post_id" AND NOT p."is_draft" AND p."created_at" > now() - make_interval(days => $2)
         GROUP BY pt."tag_id"
       ) r ON r."tag_id" = t."id"
       WHERE t."use_count" > 0
       ORDER BY "recent_count" DESC, t."use_count" DESC, t."id"
       LIMIT $1`,
      [limit, HOT_TAG_WINDOW_DAYS],
    );
  }
}
