import { schemaOf } from '@shiliu/platform';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The search service's read models, kept from auth's, content's and social's events: the notes and users it finds
 * (the whole card, so an answer needs no other service), and who liked, collected and follows what, for the
 * viewer's state on each card (an undone like or follow stays as an inactive row, so an older announcement cannot revive it). Each fact remembers the `occurredAt` it came from, so an older event never
 * overwrites it; a deletion is a tombstone that a late publication cannot undo. Every change draws the next
 * `seq` from one sequence: Elasticsearch takes it as the document's external version, and a re-index copies what
 * changed after it began by it. In embedded mode these tables are also the index PostgreSQL searches.
 */
export class SearchTables1764100000000 implements MigrationInterface {
  name = 'SearchTables1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`CREATE SEQUENCE "${s}"."changes"`);
    await queryRunner.query(`
      CREATE TABLE "${s}"."posts" (
        "id" bigint PRIMARY KEY,
        "author_id" bigint NOT NULL,
        "author_user_id" text NOT NULL DEFAULT '',
        "title" text NOT NULL DEFAULT '',
        "content_text" text NOT NULL DEFAULT '',
        "category_id" bigint,
        "category_title" text,
        "type" smallint NOT NULL DEFAULT 1,
        "tags" text[] NOT NULL DEFAULT '{}',
        "images" text[] NOT NULL DEFAULT '{}',
        "cover_url" text,
        "video_url" text,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "published" boolean NOT NULL DEFAULT false,
        "deleted" boolean NOT NULL DEFAULT false,
        "as_of" timestamptz NOT NULL DEFAULT '-infinity',
        "like_count" integer NOT NULL DEFAULT 0,
        "likes_as_of" timestamptz NOT NULL DEFAULT '-infinity',
        "collect_count" integer NOT NULL DEFAULT 0,
        "collects_as_of" timestamptz NOT NULL DEFAULT '-infinity',
        "comment_count" integer NOT NULL DEFAULT 0,
        "comments_as_of" timestamptz NOT NULL DEFAULT '-infinity',
        "seq" bigint NOT NULL DEFAULT 0
      )`);
    await queryRunner.query(`CREATE INDEX "posts_seq" ON "${s}"."posts" ("seq")`);
    await queryRunner.query(`CREATE INDEX "posts_ranked" ON "${s}"."posts" ("like_count" DESC, "created_at" DESC, "id" DESC) WHERE "published" AND NOT "deleted"`);
    await queryRunner.query(`CREATE INDEX "posts_tags" ON "${s}"."posts" USING gin ("tags") WHERE "published" AND NOT "deleted"`);
    await queryRunner.query(`CREATE INDEX "posts_title_prefix" ON "${s}"."posts" ("title" text_pattern_ops) WHERE "published" AND NOT "deleted"`);
    await queryRunner.query(`
      CREATE TABLE "${s}"."users" (
        "id" bigint PRIMARY KEY,
        "user_id" text NOT NULL DEFAULT '',
        "nickname" text NOT NULL DEFAULT '',
        "avatar" text NOT NULL DEFAULT '',
        "bio" text NOT NULL DEFAULT '',
        "location" text NOT NULL DEFAULT '',
        "verified" smallint NOT NULL DEFAULT 0,
        "registered" boolean NOT NULL DEFAULT false,
        "deleted" boolean NOT NULL DEFAULT false,
        "as_of" timestamptz NOT NULL DEFAULT '-infinity',
        "verified_as_of" timestamptz NOT NULL DEFAULT '-infinity',
        "fans_count" integer NOT NULL DEFAULT 0,
        "fans_as_of" timestamptz NOT NULL DEFAULT '-infinity',
        "seq" bigint NOT NULL DEFAULT 0
      )`);
    await queryRunner.query(`CREATE INDEX "users_seq" ON "${s}"."users" ("seq")`);
    await queryRunner.query(`CREATE INDEX "users_user_id" ON "${s}"."users" (lower("user_id")) WHERE "registered" AND NOT "deleted"`);
    await queryRunner.query(`CREATE INDEX "users_nickname_prefix" ON "${s}"."users" ("nickname" text_pattern_ops) WHERE "registered" AND NOT "deleted"`);
    await queryRunner.query(`
      CREATE TABLE "${s}"."reactions" (
        "post_id" bigint NOT NULL,
        "user_id" bigint NOT NULL,
        "kind" text NOT NULL CHECK ("kind" IN ('like', 'collect')),
        "active" boolean NOT NULL,
        "as_of" timestamptz NOT NULL,
        PRIMARY KEY ("user_id", "kind", "post_id")
      )`);
    await queryRunner.query(`CREATE INDEX "reactions_post" ON "${s}"."reactions" ("post_id", "kind")`);
    await queryRunner.query(`
      CREATE TABLE "${s}"."follows" (
        "follower_id" bigint NOT NULL,
        "following_id" bigint NOT NULL,
        "active" boolean NOT NULL,
        "as_of" timestamptz NOT NULL,
        PRIMARY KEY ("follower_id", "following_id")
      )`);
    await queryRunner.query(`CREATE INDEX "follows_following" ON "${s}"."follows" ("following_id")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`DROP TABLE "${s}"."follows", "${s}"."reactions", "${s}"."users", "${s}"."posts"`);
    await queryRunner.query(`DROP SEQUENCE "${s}"."changes"`);
  }
}
