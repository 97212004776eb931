import { schemaOf } from '@shiliu/platform';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The channels every mode starts with (public-side.md §2: `category_title` is the path segment of /explore/{channel}). */
export const defaultCategories: readonly { name: string; category_title: string }[] = [
  { name: '学习', category_title: 'study' },
  { name: '美食', category_title: 'food' },
  { name: '旅行', category_title: 'travel' },
  { name: '穿搭', category_title: 'fashion' },
  { name: '运动', category_title: 'sports' },
  { name: '校园生活', category_title: 'campus' },
  { name: '摄影', category_title: 'photography' },
  { name: '娱乐', category_title: 'entertainment' },
];

/**
 * The content service's tables. Counters live on their rows and change in the same transaction as the row that
 * causes them, so they stay exact. `hot_score` is the recommend channel's rank: ln(1 + engagement) plus the
 * creation time in weeks, which orders notes exactly as engagement·e^(-age/1 week) would at any moment, but does
 * not depend on "now", so it can be a stored column with an index.
 */
export class ContentTables1763790000000 implements MigrationInterface {
  name = 'ContentTables1763790000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`
      CREATE TABLE "${s}"."categories" (
        "id" serial PRIMARY KEY,
        "name" text NOT NULL UNIQUE,
        "category_title" text NOT NULL UNIQUE,
        "sort_order" int NOT NULL DEFAULT 0,
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`);
    for (const [index, category] of defaultCategories.entries()) {
      await queryRunner.query(`INSERT INTO "${s}"."categories" ("name", "category_title", "sort_order") VALUES ($1, $2, $3)`, [
        category.name,
        category.category_title,
        index + 1,
      ]);
    }
    await queryRunner.query(`
      CREATE TABLE "${s}"."authors" (
        "id" bigint PRIMARY KEY,
        "user_id" text NOT NULL UNIQUE,
        "nickname" text NOT NULL,
        "avatar" text NOT NULL DEFAULT '',
        "bio" text NOT NULL DEFAULT '',
        "location" text NOT NULL DEFAULT '',
        "verified" smallint NOT NULL DEFAULT 0,
        "updated_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE "${s}"."posts" (
        "id" bigserial PRIMARY KEY,
        "author_id" bigint NOT NULL REFERENCES "${s}"."authors" ("id"),
        "title" text NOT NULL DEFAULT '',
        "content" text NOT NULL DEFAULT '',
        "content_text" text NOT NULL DEFAULT '',
        "category_id" int REFERENCES "${s}"."categories" ("id"),
        "type" smallint NOT NULL DEFAULT 1,
        "is_draft" boolean NOT NULL DEFAULT false,
        "images" jsonb NOT NULL DEFAULT '[]',
        "video" jsonb,
        "cover_url" text,
        "like_count" int NOT NULL DEFAULT 0,
        "collect_count" int NOT NULL DEFAULT 0,
        "comment_count" int NOT NULL DEFAULT 0,
        "view_count" int NOT NULL DEFAULT 0,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        "hot_score" double precision GENERATED ALWAYS AS (
          ln(1 + "like_count" + 2 * "collect_count" + 2 * "comment_count" + "view_count" / 20.0)
          + extract(epoch FROM ("created_at" - timestamptz '2025-01-01 00:00:00+00')) / 604800.0
        ) STORED,
        CONSTRAINT "posts_counts_not_negative" CHECK ("like_count" >= 0 AND "collect_count" >= 0 AND "comment_count" >= 0 AND "view_count" >= 0)
      )`);
    await queryRunner.query(`CREATE INDEX "posts_recommend" ON "${s}"."posts" ("hot_score" DESC, "id" DESC) WHERE NOT "is_draft"`);
    await queryRunner.query(`CREATE INDEX "posts_newest" ON "${s}"."posts" ("created_at" DESC, "id" DESC) WHERE NOT "is_draft"`);
    await queryRunner.query(`CREATE INDEX "posts_category_newest" ON "${s}"."posts" ("category_id", "created_at" DESC, "id" DESC) WHERE NOT "is_draft"`);
    await queryRunner.query(`CREATE INDEX "posts_author" ON "${s}"."posts" ("author_id", "is_draft", "created_at" DESC)`);

    await queryRunner.query(`
      CREATE TABLE "${s}"."post_mentions" (
        "post_id" bigint NOT NULL REFERENCES "${s}"."posts" ("id") ON DELETE CASCADE,
        "user_id" bigint NOT NULL,
        PRIMARY KEY ("post_id", "user_id")
      )`);
    await queryRunner.query(`CREATE INDEX "post_mentions_user" ON "${s}"."post_mentions" ("user_id")`);

    await queryRunner.query(`
      CREATE TABLE "${s}"."tags" (
        "id" serial PRIMARY KEY,
        "name" text NOT NULL,
        "use_count" int NOT NULL DEFAULT 0,
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX "tags_name" ON "${s}"."tags" (lower("name"))`);
    await queryRunner.query(`
      CREATE TABLE "${s}"."post_tags" (
        "post_id" bigint NOT NULL REFERENCES "${s}"."posts" ("id") ON DELETE CASCADE,
        "tag_id" int NOT NULL REFERENCES "${s}"."tags" ("id") ON DELETE CASCADE,
        "position" smallint NOT NULL,
        PRIMARY KEY ("post_id", "tag_id")
      )`);
    await queryRunner.query(`CREATE INDEX "post_tags_tag" ON "${s}"."post_tags" ("tag_id")`);

    await queryRunner.query(`
      CREATE TABLE "${s}"."comments" (
        "id" bigserial PRIMARY KEY,
        "post_id" bigint NOT NULL REFERENCES "${s}"."posts" ("id") ON DELETE CASCADE,
        "author_id" bigint NOT NULL REFERENCES "${s}"."authors" ("id"),
        "parent_id" bigint REFERENCES "${s}"."comments" ("id") ON DELETE CASCADE,
        "reply_to_comment_id" bigint,
        "reply_to_user_id" bigint,
        "content" text NOT NULL,
        "content_text" text NOT NULL,
        "images" jsonb NOT NULL DEFAULT '[]',
        "like_count" int NOT NULL DEFAULT 0 CHECK ("like_count" >= 0),
        "reply_count" int NOT NULL DEFAULT 0 CHECK ("reply_count" >= 0),
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX "comments_top_level" ON "${s}"."comments" ("post_id", "created_at", "id") WHERE "parent_id" IS NULL`);
    await queryRunner.query(`CREATE INDEX "comments_replies" ON "${s}"."comments" ("parent_id", "created_at", "id")`);
    await queryRunner.query(`CREATE INDEX "comments_author" ON "${s}"."comments" ("author_id")`);
    await queryRunner.query(`
      CREATE TABLE "${s}"."comment_mentions" (
        "comment_id" bigint NOT NULL REFERENCES "${s}"."comments" ("id") ON DELETE CASCADE,
        "user_id" bigint NOT NULL,
        PRIMARY KEY ("comment_id", "user_id")
      )`);

    // One table for both targets (1 note, 2 comment) as the admin spec lists likes; the unique key makes a
    // second like of the same thing a no-op, which is what keeps the counters exact under concurrency.
    await queryRunner.query(`
      CREATE TABLE "${s}"."likes" (
        "id" bigserial PRIMARY KEY,
        "user_id" bigint NOT NULL,
        "target_type" smallint NOT NULL CHECK ("target_type" IN (1, 2)),
        "target_id" bigint NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        UNIQUE ("user_id", "target_type", "target_id")
      )`);
    await queryRunner.query(`CREATE INDEX "likes_target" ON "${s}"."likes" ("target_type", "target_id")`);
    await queryRunner.query(`CREATE INDEX "likes_user_recent" ON "${s}"."likes" ("user_id", "target_type", "created_at" DESC, "id" DESC)`);

    await queryRunner.query(`
      CREATE TABLE "${s}"."collections" (
        "id" bigserial PRIMARY KEY,
        "user_id" bigint NOT NULL,
        "post_id" bigint NOT NULL REFERENCES "${s}"."posts" ("id") ON DELETE CASCADE,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        UNIQUE ("user_id", "post_id")
      )`);
    await queryRunner.query(`CREATE INDEX "collections_post" ON "${s}"."collections" ("post_id")`);
    await queryRunner.query(`CREATE INDEX "collections_user_recent" ON "${s}"."collections" ("user_id", "created_at" DESC, "id" DESC)`);

    // The last counted view of each note per viewer, for the one-view-per-hour rule; old rows are pruned.
    await queryRunner.query(`
      CREATE TABLE "${s}"."post_views" (
        "post_id" bigint NOT NULL REFERENCES "${s}"."posts" ("id") ON DELETE CASCADE,
        "viewer" text NOT NULL,
        "viewed_at" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("post_id", "viewer")
      )`);
    await queryRunner.query(`CREATE INDEX "post_views_viewed_at" ON "${s}"."post_views" ("viewed_at")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    for (const table of ['post_views', 'collections', 'likes', 'comment_mentions', 'comments', 'post_tags', 'tags', 'post_mentions', 'posts', 'authors', 'categories']) {
      await queryRunner.query(`DROP TABLE "${s}"."${table}"`);
    }
  }
}
