import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

export interface CommentRecord {
  id: string;
  post_id: string;
  author_id: string;
  parent_id: string | null;
  reply_to_comment_id: string | null;
  reply_to_user_id: string | null;
  content: string;
  content_text: string;
  images: string[];
  like_count: number;
  reply_count: number;
  created_at: Date;
}

export interface CommentRow extends CommentRecord {
  post_author_id: string;
  user_id: string;
  nickname: string;
  avatar: string;
  verified: number;
  location: string;
  reply_to_nickname: string | null;
  reply_to_user_public_id: string | null;
  liked: boolean;
}

/** `$1` is the viewer's numeric id or null. */
const SELECT_COMMENTS = `
  SELECT c.*, p."author_id" AS "post_author_id", a."user_id", a."nickname", a."avatar", a."verified", a."location",
    ra."nickname" AS "reply_to_nickname", ra."user_id" AS "reply_to_user_public_id",
    ($1::bigint IS NOT NULL AND EXISTS (SELECT 1 FROM "likes" l WHERE l."user_id" = $1 AND l."target_type" = 2 AND l."target_id" = c."id")) AS "liked"
  FROM "comments" c
  JOIN "posts" p ON p."id" = c."post_id"
  JOIN "authors" a ON a."id" = c."author_id"
  LEFT JOIN "authors" ra ON ra."id" = c."reply_to_user_id"`;

/** How many replies come with each top-level comment in a list (public-side.md §2: 2 shown, expand for more). */
export const REPLIES_PREVIEWED = 2;

export interface NewComment {
  postId: number;
  authorId: string;
  parentId: number | null;
  replyToCommentId: number | null;
  replyToUserId: string | null;
  content: string;
  contentText: string;
  images: string[];
}

@Injectable()
export class CommentRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(manager: EntityManager, comment: NewComment, at: Date | null): Promise<CommentRecord> {
    const [row]: CommentRecord[] = await manager.query(
      `INSERT INTO "comments" ("post_id", "author_id", "parent_id", "reply_to_comment_id", "reply_to_user_id", "content", "content_text", "images", "created_at")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, COALESCE($9, now())) RETURNING *`,
      [comment.postId, comment.authorId, comment.parentId, comment.replyToCommentId, comment.replyToUserId, comment.content, comment.contentText, JSON.stringify(comment.images), at],
    );
    return row;
  }

  async find(manager: EntityManager, id: number): Promise<CommentRecord | null> {
    const rows: CommentRecord[] = await manager.query(`SELECT * FROM "comments" WHERE "id" = $1`, [id]);
    return rows[0] ?? null;
  }

  async lock(manager: EntityManager, id: number): Promise<CommentRecord | null> {
    const rows: CommentRecord[] = await manager.query(`SELECT * FROM "comments" WHERE "id" = $1 FOR UPDATE`, [id]);
    return rows[0] ?? null;
  }

  async findRow(id: number, viewerId: string | null): Promise<CommentRow | null> {
    const rows: CommentRow[] = await this.dataSource.query(`${SELECT_COMMENTS} WHERE c."id" = $2`, [viewerId, id]);
    return rows[0] ?? null;
  }

  async topLevel(postId: number, viewerId: string | null, sort: 'asc' | 'desc', limit: number, offset: number): Promise<{ rows: CommentRow[]; total: number }> {
    const direction = sort === 'asc' ? 'ASC' : 'DESC';
    const [rows, [{ total }]] = await Promise.all([
      this.dataSource.query(`${SELECT_COMMENTS} WHERE c."post_id" = $2 AND c."parent_id" IS NULL ORDER BY c."created_at" ${direction}, c."id" ${direction} LIMIT $3 OFFSET $4`, [
        viewerId,
        postId,
        limit,
        offset,
      ]) as Promise<CommentRow[]>,
      this.dataSource.query(`SELECT count(*)::int AS "total" FROM "comments" WHERE "post_id" = $1 AND "parent_id" IS NULL`, [postId]) as Promise<{ total: number }[]>,
    ]);
    return { rows, total };
  }

  /** The first replies (oldest first, as a conversation reads) of each of these top-level comments. */
  async firstReplies(parentIds: number[], viewerId: string | null): Promise<CommentRow[]> {
    if (parentIds.length === 0) return [];
    return this.dataSource.query(
      `SELECT * FROM (
         SELECT x.*, row_number() OVER (PARTITION BY x."parent_id" ORDER BY x."created_at", x."id") AS "rank"
         FROM (${SELECT_COMMENTS} WHERE c."parent_id" = ANY($2::bigint[])) x
       ) ranked WHERE "rank" <= $3 ORDER BY "created_at", "id"`,
      [viewerId, parentIds, REPLIES_PREVIEWED],
    );
  }

  /** Which of the comments named the viewer likes: the part of a cached comment page that is theirs alone. */
  async likedBy(viewerId: string, ids: number[]): Promise<Set<string>> {
    const rows: { id: string }[] = await this.dataSource.query(
      `SELECT "target_id" AS "id" FROM "likes" WHERE "user_id" = $1 AND "target_type" = 2 AND "target_id" = ANY($2::bigint[])`,
      [viewerId, ids],
    );
    return new Set(rows.map((row) => String(row.id)));
  }

  async replies(parentId: number, viewerId: string | null, limit: number, offset: number): Promise<{ rows: CommentRow[]; total: number }> {
    const [rows, [{ total }]] = await Promise.all([
      this.dataSource.query(`${SELECT_COMMENTS} WHERE c."parent_id" = $2 ORDER BY c."created_at", c."id" LIMIT $3 OFFSET $4`, [viewerId, parentId, limit, offset]) as Promise<CommentRow[]>,
      this.dataSource.query(`SELECT count(*)::int AS "total" FROM "comments" WHERE "parent_id" = $1`, [parentId]) as Promise<{ total: number }[]>,
    ]);
    return { rows, total };
  }

  async replaceMentions(manager: EntityManager, commentId: number, userIds: string[]): Promise<void> {
    if (userIds.length === 0) return;
    await manager.query(`INSERT INTO "comment_mentions" ("comment_id", "user_id") SELECT $1, unnest($2::bigint[]) ON CONFLICT DO NOTHING`, [commentId, userIds]);
  }

  async mentionsWithin(manager: EntityManager, commentId: number): Promise<string[]> {
    const rows: { user_id: string }[] = await manager.query(`SELECT "user_id" FROM "comment_mentions" WHERE "comment_id" = $1`, [commentId]);
    return rows.map((row) => String(row.user_id));
  }

  /** Mentions the text no longer makes go too, so the comment is listed only under those it still names. */
  async updateContent(manager: EntityManager, id: number, content: string, contentText: string, images: string[]): Promise<void> {
    await manager.query(`UPDATE "comments" SET "content" = $2, "content_text" = $3, "images" = $4 WHERE "id" = $1`, [id, content, contentText, JSON.stringify(images)]);
    await manager.query(`DELETE FROM "comment_mentions" WHERE "comment_id" = $1`, [id]);
  }

  async mentions(commentId: number): Promise<string[]> {
    const rows: { user_id: string }[] = await this.dataSource.query(`SELECT "user_id" FROM "comment_mentions" WHERE "comment_id" = $1`, [commentId]);
    return rows.map((row) => String(row.user_id));
  }

  /** A deleted account is mentioned nowhere any more. */
  async removeMentionsOf(manager: EntityManager, userId: string): Promise<void> {
    await manager.query(`DELETE FROM "comment_mentions" WHERE "user_id" = $1`, [userId]);
  }

  /** The comment and, for a top-level one, its replies: what a delete takes away. */
  async withReplies(manager: EntityManager, comment: CommentRecord): Promise<CommentRecord[]> {
    if (comment.parent_id !== null) return [comment];
    const replies: CommentRecord[] = await manager.query(`SELECT * FROM "comments" WHERE "parent_id" = $1 ORDER BY "id" FOR UPDATE`, [comment.id]);
    return [comment, ...replies];
  }

  async remove(manager: EntityManager, ids: number[]): Promise<void> {
    await manager.query(`DELETE FROM "likes" WHERE "target_type" = 2 AND "target_id" = ANY($1::bigint[])`, [ids]);
    await manager.query(`DELETE FROM "comments" WHERE "id" = ANY($1::bigint[])`, [ids]);
  }

  /** Moves the note's and the parent's counts; answers the note's comment count after the change. */
  async adjustCounts(manager: EntityManager, postId: string, postDelta: number, parentId: string | null, replyDelta: number): Promise<number> {
    const [rows]: [{ comment_count: number }[], number] = await manager.query(
      `UPDATE "posts" SET "comment_count" = "comment_count" + $2 WHERE "id" = $1 RETURNING "comment_count"`,
      [postId, postDelta],
    );
    if (parentId !== null && replyDelta !== 0) await manager.query(`UPDATE "comments" SET "reply_count" = "reply_count" + $2 WHERE "id" = $1`, [parentId, replyDelta]);
    return rows[0]?.comment_count ?? 0;
  }

  async byAuthor(manager: EntityManager, authorId: string): Promise<CommentRecord[]> {
    // Top-level comments first: deleting them takes their replies, which then need no second delete.
    return manager.query(`SELECT * FROM "comments" WHERE "author_id" = $1 ORDER BY "parent_id" NULLS FIRST, "id"`, [authorId]);
  }
}
