import { Injectable } from '@nestjs/common';
import type { CommentSnapshot } from '@shiliu/contracts';
import type { EntityManager } from 'typeorm';

/**
 * The comments notifications quote, their like counts, and who liked them: a comment notification lets its
 * recipient like the comment in place, so the page shows whether they already have.
 */
@Injectable()
export class CommentCopyRepository {
  async created(manager: EntityManager, comment: CommentSnapshot): Promise<void> {
    await manager.query(
      `INSERT INTO "comments" ("id", "post_id", "author_id", "content") VALUES ($1, $2, $3, $4)
       ON CONFLICT ("id") DO UPDATE SET "author_id" = EXCLUDED."author_id", "content" = EXCLUDED."content" WHERE NOT "comments"."deleted"`,
      [comment.id, comment.post_id, comment.author_id, comment.content_text],
    );
  }

  /** A like or unlike by `userId`, with the comment's like count after it (a like may arrive before the comment). */
  async liked(manager: EntityManager, commentId: number, postId: number, userId: number, liked: boolean, count: number, occurredAt: string): Promise<void> {
    await manager.query(
      `INSERT INTO "comments" ("id", "post_id", "like_count", "likes_as_of") VALUES ($1, $2, $3, $4)
       ON CONFLICT ("id") DO UPDATE SET "like_count" = EXCLUDED."like_count", "likes_as_of" = EXCLUDED."likes_as_of"
       WHERE "comments"."likes_as_of" <= EXCLUDED."likes_as_of"`,
      [commentId, postId, count, occurredAt],
    );
    if (liked) await manager.query(`INSERT INTO "comment_likes" ("comment_id", "user_id") VALUES ($1, $2) ON CONFLICT DO NOTHING`, [commentId, userId]);
    else await manager.query(`DELETE FROM "comment_likes" WHERE "comment_id" = $1 AND "user_id" = $2`, [commentId, userId]);
  }

  /** A tombstone, so that a late like of the comment notifies no one. */
  async remove(manager: EntityManager, id: number, postId: number): Promise<void> {
    await manager.query(`DELETE FROM "comment_likes" WHERE "comment_id" = $1`, [id]);
    await manager.query(
      `INSERT INTO "comments" ("id", "post_id", "deleted", "likes_as_of") VALUES ($1, $2, true, 'infinity')
       ON CONFLICT ("id") DO UPDATE SET "deleted" = true, "content" = NULL, "likes_as_of" = 'infinity'`,
      [id, postId],
    );
  }

  /** A deleted note takes its comments with it (content sends no comment.deleted for them). */
  async removeOfPost(manager: EntityManager, postId: number): Promise<void> {
    await manager.query(`DELETE FROM "comment_likes" WHERE "comment_id" IN (SELECT "id" FROM "comments" WHERE "post_id" = $1)`, [postId]);
    await manager.query(`UPDATE "comments" SET "deleted" = true, "content" = NULL, "likes_as_of" = 'infinity' WHERE "post_id" = $1`, [postId]);
  }

  async removeLikesBy(manager: EntityManager, userId: number): Promise<void> {
    await manager.query(`DELETE FROM "comment_likes" WHERE "user_id" = $1`, [userId]);
  }
}
