import { Injectable } from '@nestjs/common';
import { rowsOf } from '@shiliu/platform';
import { DataSource } from 'typeorm';
import { ACTION_WEIGHTS, type Candidate } from './affinity';

/** How many of a viewer's latest actions of each kind (likes, collections, comments, follows) shape their interests. */
const ACTIONS_READ = 200;

/** A row of a viewer's interests: one action's weight on a category, tag or author. */
export interface InterestRow {
  kind: 'category' | 'tag' | 'author';
  key: string;
  weight: number;
}

/** What a viewer did, as the personalised 推荐 reads it. */
export interface Actions {
  interests: InterestRow[];
  /** The notes they liked, collected or commented on (of their latest actions). */
  acted: number[];
  /** How many published notes of their own there are. */
  own: number;
}

/** A source of candidates: the best notes of a category or the newest of an author. */
export type Source = { category: number } | { author: string };

interface CandidateRow {
  id: string;
  author_id: string;
  category_id: number | null;
  tag_ids: number[];
  hot_score: number;
}

/** A candidate's columns; `p` is the note. */
const CANDIDATE_COLUMNS = `p."id", p."author_id", p."category_id", p."hot_score",
  ARRAY(SELECT pt."tag_id" FROM "post_tags" pt WHERE pt."post_id" = p."id") AS "tag_ids"`;

/** What the personalised 推荐 reads: a viewer's interests from their own rows, and the notes it may recommend. */
@Injectable()
export class RecommendRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The viewer's latest likes, collections and comments on others' published notes, weighed and spread over each
   * note's category, tags and author, and the people they follow, summed per category, tag and author; the notes
   * themselves; and how many notes of their own are published.
   */
  async actions(viewerId: string): Promise<Actions> {
    const rows = await rowsOf<{ kind: InterestRow['kind'] | 'note' | 'own'; key: string; weight: number }>(
      this.dataSource,
      `WITH "acted" AS (
         (SELECT "target_id" AS "post_id", $2::float8 AS "weight" FROM "likes" WHERE "user_id" = $1 AND "target_type" = 1 ORDER BY "created_at" DESC, "id" DESC LIMIT $6)
         UNION ALL
         (SELECT "post_id", $3::float8 FROM "collections" WHERE "user_id" = $1 ORDER BY "created_at" DESC, "id" DESC LIMIT $6)
         UNION ALL
         (SELECT "post_id", $4::float8 FROM "comments" WHERE "author_id" = $1 ORDER BY "created_at" DESC, "id" DESC LIMIT $6)
       ), "notes" AS (
         SELECT p."id", p."category_id", p."author_id", a."weight" FROM "acted" a
         JOIN "posts" p ON p."id" = a."post_id" AND NOT p."is_draft" AND p."author_id" <> $1
       )
       SELECT "kind", "key", sum("weight") AS "weight" FROM (
         SELECT 'category' AS "kind", "category_id"::text AS "key", "weight" FROM "notes" WHERE "category_id" IS NOT NULL
         UNION ALL
         SELECT 'tag', pt."tag_id"::text, n."weight" FROM "notes" n JOIN "post_tags" pt ON pt."post_id" = n."id"
         UNION ALL
         SELECT 'author', "author_id"::text, "weight" FROM "notes"
         UNION ALL
         (SELECT 'author', "following_id"::text, $5::float8 FROM "follows" WHERE "follower_id" = $1 AND "active" ORDER BY "as_of" DESC LIMIT $6)
         UNION ALL
         SELECT 'note', "id"::text, 0 FROM "notes"
         UNION ALL
         SELECT 'own', '', count(*)::float8 FROM "posts" WHERE "author_id" = $1 AND NOT "is_draft"
       ) "rows" GROUP BY "kind", "key"`,
      [viewerId, ACTION_WEIGHTS.like, ACTION_WEIGHTS.collect, ACTION_WEIGHTS.comment, ACTION_WEIGHTS.follow, ACTIONS_READ],
    );
    const interests = rows.filter((row): row is InterestRow => row.kind !== 'note' && row.kind !== 'own');
    const acted = rows.filter((row) => row.kind === 'note').map((row) => Number(row.key));
    return { interests, acted, own: rows.find((row) => row.kind === 'own')?.weight ?? 0 };
  }

  /** How many published notes there are. */
  async published(): Promise<number> {
    const [row] = await rowsOf<{ total: number }>(this.dataSource, `SELECT count(*)::int AS "total" FROM "posts" WHERE NOT "is_draft"`);
    return row.total;
  }

  /** The first `depth` published notes by the engagement-and-freshness score: the same for every viewer. */
  async mostEngaging(depth: number): Promise<Candidate[]> {
    const rows = await rowsOf<CandidateRow>(this.dataSource, `SELECT ${CANDIDATE_COLUMNS} FROM "posts" p WHERE NOT p."is_draft" ORDER BY p."hot_score" DESC, p."id" DESC LIMIT $1`, [depth]);
    return rows.map(toCandidate);
  }

  /**
   * The best `perCategory` notes by the same score in each category, and the newest `perAuthor` of each author:
   * one index range each (posts_category_recommend, posts_author_newest), in one round trip.
   */
  async fromSources(categoryIds: number[], perCategory: number, authorIds: string[], perAuthor: number): Promise<{ source: Source; notes: Candidate[] }[]> {
    const rows = await rowsOf<CandidateRow & { category: number | null; author: string | null }>(
      this.dataSource,
      `SELECT s."category", s."author", ${CANDIDATE_COLUMNS} FROM (
         SELECT c."id" AS "category", NULL::bigint AS "author", best."id" FROM unnest($1::int[]) c("id") CROSS JOIN LATERAL (
           SELECT q."id" FROM "posts" q WHERE q."category_id" = c."id" AND NOT q."is_draft" ORDER BY q."hot_score" DESC, q."id" DESC LIMIT $2) best
         UNION ALL
         SELECT NULL, a."id", newest."id" FROM unnest($3::bigint[]) a("id") CROSS JOIN LATERAL (
           SELECT q."id" FROM "posts" q WHERE q."author_id" = a."id" AND NOT q."is_draft" ORDER BY q."created_at" DESC, q."id" DESC LIMIT $4) newest
       ) s JOIN "posts" p ON p."id" = s."id"`,
      [categoryIds, perCategory, authorIds, perAuthor],
    );
    return [
      ...categoryIds.map((category) => ({ source: { category }, notes: rows.filter((row) => row.category === category).map(toCandidate) })),
      ...authorIds.map((author) => ({ source: { author }, notes: rows.filter((row) => row.author !== null && String(row.author) === author).map(toCandidate) })),
    ];
  }
}

function toCandidate(row: CandidateRow): Candidate {
  return { id: Number(row.id), authorId: String(row.author_id), categoryId: row.category_id, tagIds: row.tag_ids, hotScore: row.hot_score };
}
