import { schemaOf } from '@shiliu/platform';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The notify service's tables. `notifications`, `unread_counts` and `activities` are its own truth; `users`, `posts`,
 * `comments` and `comment_likes` are read models kept from auth's, content's and social's events, joined when a page
 * is read so that a sender's new nickname or a note's new cover shows on notifications made before the change.
 *
 * A notification is unique per recipient, sender, type and target: liking twice, or again after unliking, never makes
 * a second one. Undoing the action while the notification is unread hides it (`hidden_by` 'undo') so that doing it
 * again shows the same one; a recipient's deletion hides it for good ('owner'). One comment notifies one person once
 * (`notifications_one_per_comment`): a reply that also mentions the replied-to user is a reply, not a mention too.
 *
 * Deleted users, notes and comments stay as tombstones (`deleted`): their events travel on other topics than the
 * likes and follows that point at them, so a like may arrive after the note's deletion and must not notify.
 */
export class NotifyTables1764000000000 implements MigrationInterface {
  name = 'NotifyTables1764000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`
      CREATE TABLE "${s}"."users" (
        "id" bigint PRIMARY KEY,
        "user_id" text,
        "nickname" text,
        "avatar" text NOT NULL DEFAULT '',
        "verified" smallint NOT NULL DEFAULT 0,
        "as_of" timestamptz NOT NULL DEFAULT '-infinity',
        "follow_count" integer NOT NULL DEFAULT 0,
        "follows_as_of" timestamptz NOT NULL DEFAULT '-infinity',
        "fans_count" integer NOT NULL DEFAULT 0,
        "fans_as_of" timestamptz NOT NULL DEFAULT '-infinity',
        "deleted" boolean NOT NULL DEFAULT false
      )`);
    await queryRunner.query(`
      CREATE TABLE "${s}"."posts" (
        "id" bigint PRIMARY KEY,
        "author_id" bigint NOT NULL,
        "title" text NOT NULL DEFAULT '',
        "image" text,
        "as_of" timestamptz NOT NULL,
        "deleted" boolean NOT NULL DEFAULT false
      )`);
    await queryRunner.query(`
      CREATE TABLE "${s}"."comments" (
        "id" bigint PRIMARY KEY,
        "post_id" bigint NOT NULL,
        "author_id" bigint,
        "content" text,
        "like_count" integer NOT NULL DEFAULT 0,
        "likes_as_of" timestamptz NOT NULL DEFAULT '-infinity',
        "deleted" boolean NOT NULL DEFAULT false
      )`);
    await queryRunner.query(`
      CREATE TABLE "${s}"."comment_likes" (
        "comment_id" bigint NOT NULL,
        "user_id" bigint NOT NULL,
        PRIMARY KEY ("comment_id", "user_id")
      )`);
    await queryRunner.query(`
      CREATE TABLE "${s}"."notifications" (
        "id" bigserial PRIMARY KEY,
        "user_id" bigint NOT NULL,
        "sender_id" bigint NOT NULL,
        "type" smallint NOT NULL CHECK ("type" BETWEEN 1 AND 8),
        "target_id" bigint NOT NULL,
        "post_id" bigint,
        "comment_id" bigint,
        "reply_to_comment_id" bigint,
        "is_read" boolean NOT NULL DEFAULT false,
        "hidden_by" text CHECK ("hidden_by" IN ('undo', 'owner')),
        "created_at" timestamptz NOT NULL,
        UNIQUE ("user_id", "sender_id", "type", "target_id"),
        CHECK ("user_id" <> "sender_id")
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX "notifications_one_per_comment" ON "${s}"."notifications" ("user_id", "comment_id") WHERE "type" IN (4, 5, 7)`);
    await queryRunner.query(`CREATE INDEX "notifications_page" ON "${s}"."notifications" ("user_id", "type", "created_at" DESC, "id" DESC) WHERE "hidden_by" IS NULL`);
    await queryRunner.query(`CREATE INDEX "notifications_post" ON "${s}"."notifications" ("post_id")`);
    await queryRunner.query(`CREATE INDEX "notifications_comment" ON "${s}"."notifications" ("comment_id")`);
    await queryRunner.query(`CREATE INDEX "notifications_sender" ON "${s}"."notifications" ("sender_id")`);
    await queryRunner.query(`
      CREATE TABLE "${s}"."unread_counts" (
        "user_id" bigint PRIMARY KEY,
        "comments" integer NOT NULL DEFAULT 0,
        "likes" integer NOT NULL DEFAULT 0,
        "collections" integer NOT NULL DEFAULT 0,
        "follows" integer NOT NULL DEFAULT 0
      )`);
    await queryRunner.query(`
      CREATE TABLE "${s}"."activities" (
        "id" bigserial PRIMARY KEY,
        "type" text NOT NULL CHECK ("type" IN ('user_register', 'post_publish', 'comment_publish')),
        "user_id" bigint NOT NULL,
        "target_id" bigint NOT NULL,
        "post_id" bigint,
        "content" text NOT NULL DEFAULT '',
        "created_at" timestamptz NOT NULL
      )`);
    await queryRunner.query(`CREATE INDEX "activities_recent" ON "${s}"."activities" ("created_at" DESC, "id" DESC)`);
    await queryRunner.query(`CREATE INDEX "activities_user" ON "${s}"."activities" ("user_id")`);
    await queryRunner.query(`CREATE INDEX "activities_post" ON "${s}"."activities" ("post_id")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(
      `DROP TABLE "${s}"."activities", "${s}"."unread_counts", "${s}"."notifications", "${s}"."comment_likes", "${s}"."comments", "${s}"."posts", "${s}"."users"`,
    );
  }
}
