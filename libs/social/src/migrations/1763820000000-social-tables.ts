import { schemaOf } from '@shiliu/platform';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The social service's tables. `follows` is this service's own truth; `user_cards` and `posts` are read models kept
 * from auth's and content's events (each row remembers the `occurredAt` it came from, so an older event never
 * overwrites it); `user_stats` holds the counters, which move with every change of what they count and which the
 * reconcile command can recompute from `follows` and `posts` at any time.
 */
export class SocialTables1763820000000 implements MigrationInterface {
  name = 'SocialTables1763820000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`
      CREATE TABLE "${s}"."user_cards" (
        "id" bigint PRIMARY KEY,
        "user_id" text NOT NULL UNIQUE,
        "nickname" text NOT NULL,
        "avatar" text NOT NULL DEFAULT '',
        "bio" text NOT NULL DEFAULT '',
        "location" text NOT NULL DEFAULT '',
        "verified" smallint NOT NULL DEFAULT 0,
        "as_of" timestamptz NOT NULL
      )`);
    await queryRunner.query(`
      CREATE TABLE "${s}"."follows" (
        "id" bigserial PRIMARY KEY,
        "follower_id" bigint NOT NULL,
        "following_id" bigint NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        UNIQUE ("follower_id", "following_id"),
        CHECK ("follower_id" <> "following_id")
      )`);
    await queryRunner.query(`CREATE INDEX "follows_following" ON "${s}"."follows" ("following_id", "created_at" DESC, "id" DESC)`);
    await queryRunner.query(`CREATE INDEX "follows_follower" ON "${s}"."follows" ("follower_id", "created_at" DESC, "id" DESC)`);
    await queryRunner.query(`
      CREATE TABLE "${s}"."posts" (
        "id" bigint PRIMARY KEY,
        "author_id" bigint NOT NULL,
        "published" boolean NOT NULL DEFAULT false,
        "deleted" boolean NOT NULL DEFAULT false,
        "cover" text,
        "created_at" timestamptz,
        "as_of" timestamptz NOT NULL DEFAULT '-infinity',
        "like_count" integer NOT NULL DEFAULT 0,
        "likes_as_of" timestamptz NOT NULL DEFAULT '-infinity',
        "collect_count" integer NOT NULL DEFAULT 0,
        "collects_as_of" timestamptz NOT NULL DEFAULT '-infinity'
      )`);
    await queryRunner.query(`CREATE INDEX "posts_author_recent" ON "${s}"."posts" ("author_id", "created_at" DESC) WHERE "published" AND NOT "deleted"`);
    await queryRunner.query(`
      CREATE TABLE "${s}"."user_stats" (
        "user_id" bigint PRIMARY KEY,
        "follow_count" integer NOT NULL DEFAULT 0,
        "fans_count" integer NOT NULL DEFAULT 0,
        "post_count" integer NOT NULL DEFAULT 0,
        "like_count" integer NOT NULL DEFAULT 0,
        "collect_count" integer NOT NULL DEFAULT 0
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`DROP TABLE "${s}"."user_stats", "${s}"."posts", "${s}"."follows", "${s}"."user_cards"`);
  }
}
