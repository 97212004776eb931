import { Injectable } from '@nestjs/common';
import type { PostSnapshot } from '@shiliu/contracts';
import { type NoteCountAsOf, rowsOf } from '@shiliu/platform';
import type { DataSource, EntityManager } from 'typeorm';
import type { PostDocument } from '../engine/search-engine';

export type CountColumn = 'like_count' | 'collect_count' | 'comment_count';

export interface PostRow {
  id: string;
  author_id: string;
  author_user_id: string;
  title: string;
  content_text: string;
  category_id: string | null;
  category_title: string | null;
  type: 1 | 2;
  tags: string[];
  images: string[];
  cover_url: string | null;
  video_url: string | null;
  created_at: Date;
  published: boolean;
  deleted: boolean;
  like_count: number;
  collect_count: number;
  comment_count: number;
  seq: string;
}

export function isSearchable(row: PostRow): boolean {
  return row.published && !row.deleted;
}

export function postDocument(row: PostRow): PostDocument {
  return {
    id: Number(row.id),
    title: row.title,
    content: row.content_text,
    tags: row.tags,
    type: row.type,
    like_count: row.like_count,
    created_at: row.created_at.toISOString(),
    seq: Number(row.seq),
  };
}

/**
 * The notes as content's events describe them. Events about one note come on three topics (shiliu.post,
 * shiliu.reaction, shiliu.comment) in no order relative to each other, so each fact is the last state seen, taken
 * only from an event newer than the one it replaces. Each change answers the row as it now is (or null when the
 * event was older than what the row holds), for the engine to index.
 */
@Injectable()
export class PostRepository {
  published(manager: EntityManager, post: PostSnapshot, occurredAt: string): Promise<PostRow | null> {
    return this.change(
      manager,
      post.id,
      post.author_id,
      `"published" = true, "as_of" = $2, "author_user_id" = $3, "title" = $4, "content_text" = $5, "category_id" = $6, "category_title" = $7,
       "type" = $8, "tags" = $9, "images" = $10, "cover_url" = $11, "video_url" = $12, "created_at" = $13`,
      `"as_of" <= $2 AND NOT "deleted"`,
      [occurredAt, post.author_user_id, post.title, post.content_text, post.category_id, post.category_title, post.type, post.tags, post.images, post.cover_url, post.video_url, post.created_at],
    );
  }

  deleted(manager: EntityManager, id: number, authorId: number): Promise<PostRow | null> {
    return this.change(manager, id, authorId, `"deleted" = true`, `NOT "deleted"`, []);
  }

  /**
   * Notes' counts, each where it is newer than the note's, drawing each changed row's next `seq`, in two statements
   * however many notes; answers the rows changed.
   */
  async counts(manager: EntityManager, column: CountColumn, counts: NoteCountAsOf[]): Promise<PostRow[]> {
    const asOf = { like_count: 'likes_as_of', collect_count: 'collects_as_of', comment_count: 'comments_as_of' }[column];
    const ids = counts.map((count) => count.id);
    await manager.query(`INSERT INTO "posts" ("id", "author_id") SELECT * FROM unnest($1::bigint[], $2::bigint[]) ORDER BY 1 ON CONFLICT DO NOTHING`, [ids, counts.map((count) => count.authorId)]);
    return rowsOf<PostRow>(
      manager,
      `UPDATE "posts" "p" SET "${column}" = "m"."count", "${asOf}" = "m"."as_of", "seq" = nextval('changes')
       FROM unnest($1::bigint[], $2::int[], $3::timestamptz[]) AS "m"("id", "count", "as_of")
       WHERE "p"."id" = "m"."id" AND "p"."${asOf}" <= "m"."as_of"
       RETURNING "p".*`,
      [ids, counts.map((count) => count.count), counts.map((count) => count.asOf)],
    );
  }

  /** How many searchable notes each of `authorIds` has; an author with none is absent. */
  async countsByAuthor(dataSource: DataSource, authorIds: number[]): Promise<Map<string, number>> {
    if (authorIds.length === 0) return new Map();
    const rows: { author_id: string; count: number }[] = await dataSource.query(
      `SELECT "author_id", count(*)::int AS "count" FROM "posts" WHERE "author_id" = ANY($1::bigint[]) AND "published" AND NOT "deleted" GROUP BY "author_id"`,
      [authorIds],
    );
    return new Map(rows.map((row) => [String(row.author_id), row.count]));
  }

  /** The searchable notes among `ids`, in no particular order. */
  async byIds(dataSource: DataSource, ids: number[]): Promise<PostRow[]> {
    if (ids.length === 0) return [];
    return dataSource.query(`SELECT * FROM "posts" WHERE "id" = ANY($1::bigint[]) AND "published" AND NOT "deleted"`, [ids]);
  }

  /** Applies `set` where `guard` holds (both over $1 = the note's id, then `params`), drawing the row's next `seq`. */
  private async change(manager: EntityManager, id: number, authorId: number, set: string, guard: string, params: unknown[]): Promise<PostRow | null> {
    await manager.query(`INSERT INTO "posts" ("id", "author_id") VALUES ($1, $2) ON CONFLICT DO NOTHING`, [id, authorId]);
    const [rows]: [PostRow[], number] = await manager.query(
      `UPDATE "posts" SET ${set}, "seq" = nextval('changes') WHERE "id" = $1 AND ${guard} RETURNING *`,
      [id, ...params],
    );
    return rows[0] ?? null;
  }
}
