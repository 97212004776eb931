import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

export type ActivityType = 'user_register' | 'post_publish' | 'comment_publish';

export interface NewActivity {
  type: ActivityType;
  userId: number;
  targetId: number;
  postId: number | null;
  content: string;
  createdAt: string;
}

export interface ActivityRow {
  id: number;
  type: ActivityType;
  user_auto_id: number;
  user_id: string | null;
  nickname: string | null;
  avatar: string | null;
  target_id: number;
  post_id: number | null;
  content: string;
  created_at: Date;
}

/** The administrator's activity log (admin-and-startup.md §2.6), the actor's nickname and avatar joined as they are now. */
@Injectable()
export class ActivityRepository {
  async add(manager: EntityManager, activity: NewActivity): Promise<void> {
    await manager.query(
      `INSERT INTO "activities" ("type", "user_id", "target_id", "post_id", "content", "created_at") VALUES ($1, $2, $3, $4, $5, $6)`,
      [activity.type, activity.userId, activity.targetId, activity.postId, activity.content, activity.createdAt],
    );
  }

  /** A deleted account leaves the log. */
  async removeOfUser(manager: EntityManager, userId: number): Promise<void> {
    await manager.query(`DELETE FROM "activities" WHERE "user_id" = $1`, [userId]);
  }

  async removeOfPost(manager: EntityManager, postId: number): Promise<void> {
    await manager.query(`DELETE FROM "activities" WHERE "post_id" = $1`, [postId]);
  }

  async editComment(manager: EntityManager, commentId: number, content: string): Promise<void> {
    await manager.query(`UPDATE "activities" SET "content" = $2 WHERE "type" = 'comment_publish' AND "target_id" = $1`, [commentId, content]);
  }

  async removeOfComment(manager: EntityManager, commentId: number): Promise<void> {
    await manager.query(`DELETE FROM "activities" WHERE "type" = 'comment_publish' AND "target_id" = $1`, [commentId]);
  }

  async page(manager: EntityManager, limit: number, offset: number): Promise<ActivityRow[]> {
    return manager.query(
      `SELECT "a"."id"::int AS "id", "a"."type", "a"."user_id"::int AS "user_auto_id", "u"."user_id", "u"."nickname", "u"."avatar",
         "a"."target_id"::int AS "target_id", "a"."post_id"::int AS "post_id", "a"."content", "a"."created_at"
       FROM "activities" "a" LEFT JOIN "users" "u" ON "u"."id" = "a"."user_id"
       ORDER BY "a"."created_at" DESC, "a"."id" DESC LIMIT $1 OFFSET $2`,
      [limit, offset],
    );
  }
}
