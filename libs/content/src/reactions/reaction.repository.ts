import { Injectable } from '@nestjs/common';
import { rowsOf } from '@shiliu/platform';
import type { EntityManager } from 'typeorm';

/** What a like is on: 1 a note, 2 a comment. */
export type LikeTarget = 1 | 2;

/** A counter after it was read or moved, with what the event about it names. */
export interface Counted {
  count: number;
  author_id: string;
  post_id: string;
}

/** Likes (of notes and comments) and collections, one row per user and target, and the counters they move. */
@Injectable()
export class ReactionRepository {
  /** Answers whether the like is new. */
  async addLike(manager: EntityManager, userId: string, target: LikeTarget, targetId: number): Promise<boolean> {
    const rows = await rowsOf(
      manager,
      `INSERT INTO "likes" ("user_id", "target_type", "target_id") VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING "id"`,
      [userId, target, targetId],
    );
    return rows.length > 0;
  }

  /** Answers whether there was a like to remove. */
  async removeLike(manager: EntityManager, userId: string, target: LikeTarget, targetId: number): Promise<boolean> {
    const rows = await rowsOf(manager, `DELETE FROM "likes" WHERE "user_id" = $1 AND "target_type" = $2 AND "target_id" = $3 RETURNING "id"`, [userId, target, targetId]);
    return rows.length > 0;
  }

  /** Answers whether the collection is new; a note deleted meanwhile fails on its foreign key. */
  async addCollection(manager: EntityManager, userId: string, postId: number): Promise<boolean> {
    const rows = await rowsOf(manager, `INSERT INTO "collections" ("user_id", "post_id") VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING "id"`, [userId, postId]);
    return rows.length > 0;
  }

  /** Answers whether there was a collection to remove. */
  async removeCollection(manager: EntityManager, userId: string, postId: number): Promise<boolean> {
    const rows = await rowsOf(manager, `DELETE FROM "collections" WHERE "user_id" = $1 AND "post_id" = $2 RETURNING "id"`, [userId, postId]);
    return rows.length > 0;
  }

  /**
   * Moves a note's like or collect counter by `step`; with `publishedOnly` a draft does not move. Answers the new
   * count, or null when no note matched.
   */
  async movePostCounter(manager: EntityManager, postId: number, column: 'like_count' | 'collect_count', step: 1 | -1, publishedOnly = false): Promise<Counted | null> {
    const [row] = await rowsOf<Counted>(
      manager,
      `UPDATE "posts" SET "${column}" = "${column}" + $2 WHERE "id" = $1 ${publishedOnly ? `AND NOT "is_draft"` : ''}
       RETURNING "${column}" AS "count", "author_id", "id" AS "post_id"`,
      [postId, step],
    );
    return row ?? null;
  }

  /** Moves a comment's like counter by `step`; answers the new count, or null when there is no such comment. */
  async moveCommentLikes(manager: EntityManager, commentId: number, step: 1 | -1): Promise<Counted | null> {
    const [row] = await rowsOf<Counted>(
      manager,
      `UPDATE "comments" SET "like_count" = "like_count" + $2 WHERE "id" = $1 RETURNING "like_count" AS "count", "author_id", "post_id"`,
      [commentId, step],
    );
    return row ?? null;
  }

  /** A published note's counter (null for a draft or a missing note). */
  async postCounter(manager: EntityManager, postId: number, column: 'like_count' | 'collect_count'): Promise<Counted | null> {
    const [row] = await rowsOf<Counted>(manager, `SELECT "${column}" AS "count", "author_id", "id" AS "post_id" FROM "posts" WHERE "id" = $1 AND NOT "is_draft"`, [postId]);
    return row ?? null;
  }

  async commentLikes(manager: EntityManager, commentId: number): Promise<Counted | null> {
    const [row] = await rowsOf<Counted>(manager, `SELECT "like_count" AS "count", "author_id", "post_id" FROM "comments" WHERE "id" = $1`, [commentId]);
    return row ?? null;
  }

  /** Demo data: each note's likes and collections are dated between its publication and now. */
  async spreadOverNotesLives(manager: EntityManager): Promise<void> {
    await rowsOf(manager, `UPDATE "likes" l SET "created_at" = p."created_at" + random() * (now() - p."created_at") FROM "posts" p WHERE l."target_type" = 1 AND l."target_id" = p."id"`);
    await rowsOf(manager, `UPDATE "collections" k SET "created_at" = p."created_at" + random() * (now() - p."created_at") FROM "posts" p WHERE k."post_id" = p."id"`);
  }

  /** Everything a user liked, oldest first. */
  async likesOf(manager: EntityManager, userId: string): Promise<{ target_type: LikeTarget; target_id: string }[]> {
    return rowsOf(manager, `SELECT "target_type", "target_id" FROM "likes" WHERE "user_id" = $1 ORDER BY "id"`, [userId]);
  }

  /** Every note a user collected, oldest first. */
  async collectionsOf(manager: EntityManager, userId: string): Promise<number[]> {
    const rows = await rowsOf<{ post_id: string }>(manager, `SELECT "post_id" FROM "collections" WHERE "user_id" = $1 ORDER BY "id"`, [userId]);
    return rows.map((row) => Number(row.post_id));
  }
}
