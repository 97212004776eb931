import { Injectable } from '@nestjs/common';
import { rowsOf } from '@shiliu/platform';
import { DataSource } from 'typeorm';

/** What makes a note close to another, and how much: a shared tag says most, one category least. */
export const RELATED_WEIGHTS = { sharedTag: 3, coLike: 2, sameAuthor: 2, sameCategory: 1 } as const;
/** A few students liking both says as much as a shared tag or two; a crowd of them should not drown the note's topic. */
const CO_LIKES_COUNTED = 5;
/** The newest notes read per tag, author and category, and the likers (with their newest likes) read: the work stays bounded however popular the note. */
const CANDIDATES_PER_SOURCE = 200;
const LIKERS_READ = 200;
const LIKES_PER_LIKER = 50;

/**
 * Related notes from content's own tables: the candidates are the newest published notes sharing a tag, the author
 * or the category, and those the note's likers also liked; each is scored by all four and the best come first.
 */
@Injectable()
export class RelatedPostRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The ids of the published notes closest to note `id`, best first; null when `id` is no published note. */
  async rank(id: number, limit: number): Promise<number[] | null> {
    const [note] = await rowsOf<{ author_id: string; category_id: number | null }>(
      this.dataSource.manager,
      `SELECT "author_id", "category_id" FROM "posts" WHERE "id" = $1 AND NOT "is_draft"`,
      [id],
    );
    if (!note) return null;
    const rows = await rowsOf<{ id: number }>(
      this.dataSource.manager,
      `WITH "by_tag" AS (
         SELECT "other"."post_id", count(*)::int AS "shared_tags"
         FROM "post_tags" "mine"
         CROSS JOIN LATERAL (
           SELECT "o"."post_id" FROM "post_tags" "o" WHERE "o"."tag_id" = "mine"."tag_id" AND "o"."post_id" <> $1 ORDER BY "o"."post_id" DESC LIMIT $5
         ) "other"
         WHERE "mine"."post_id" = $1
         GROUP BY "other"."post_id"
       ), "likers" AS (
         SELECT "user_id" FROM "likes" WHERE "target_type" = 1 AND "target_id" = $1 ORDER BY "created_at" DESC, "id" DESC LIMIT $6
       ), "by_likers" AS (
         SELECT "liked"."target_id" AS "post_id", count(*)::int AS "co_likes"
         FROM "likers" "u"
         CROSS JOIN LATERAL (
           SELECT "l"."target_id" FROM "likes" "l" WHERE "l"."user_id" = "u"."user_id" AND "l"."target_type" = 1 AND "l"."target_id" <> $1
           ORDER BY "l"."created_at" DESC, "l"."id" DESC LIMIT $7
         ) "liked"
         GROUP BY "liked"."target_id"
       ), "by_author" AS (
         SELECT "id" AS "post_id" FROM "posts" WHERE "author_id" = $2 AND NOT "is_draft" AND "id" <> $1 ORDER BY "created_at" DESC LIMIT $5
       ), "by_category" AS (
         SELECT "id" AS "post_id" FROM "posts" WHERE "category_id" = $3 AND NOT "is_draft" AND "id" <> $1 ORDER BY "created_at" DESC, "id" DESC LIMIT $5
       ), "candidates" AS (
         SELECT "post_id" FROM "by_tag" UNION SELECT "post_id" FROM "by_likers" UNION SELECT "post_id" FROM "by_author" UNION SELECT "post_id" FROM "by_category"
       )
       SELECT "p"."id"::int AS "id"
       FROM "candidates" "c"
       JOIN "posts" "p" ON "p"."id" = "c"."post_id" AND NOT "p"."is_draft"
       LEFT JOIN "by_tag" "t" ON "t"."post_id" = "p"."id"
       LEFT JOIN "by_likers" "l" ON "l"."post_id" = "p"."id"
       ORDER BY $8::int * coalesce("t"."shared_tags", 0) + $9::int * least(coalesce("l"."co_likes", 0), $10::int)
           + CASE WHEN "p"."author_id" = $2 THEN $11::int ELSE 0 END + CASE WHEN "p"."category_id" = $3 THEN $12::int ELSE 0 END DESC,
         "p"."hot_score" DESC, "p"."id" DESC
       LIMIT $4`,
      [
        id,
        note.author_id,
        note.category_id,
        limit,
        CANDIDATES_PER_SOURCE,
        LIKERS_READ,
        LIKES_PER_LIKER,
        RELATED_WEIGHTS.sharedTag,
        RELATED_WEIGHTS.coLike,
        CO_LIKES_COUNTED,
        RELATED_WEIGHTS.sameAuthor,
        RELATED_WEIGHTS.sameCategory,
      ],
    );
    return rows.map((row) => row.id);
  }
}
