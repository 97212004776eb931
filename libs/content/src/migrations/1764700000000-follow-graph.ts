import { schemaOf } from '@shiliu/platform';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Who follows whom, learned from social's follow events, for the 关注 feed; and each followed user's fans count as
 * those events carry it, for the people suggested to follow. An undone follow stays as an inactive row, so that an
 * older announcement cannot revive it; each row keeps the `occurredAt` of the event it came from.
 */
export class FollowGraph1764700000000 implements MigrationInterface {
  name = 'FollowGraph1764700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`
      CREATE TABLE "${s}"."follows" (
        "follower_id" bigint NOT NULL,
        "following_id" bigint NOT NULL,
        "active" boolean NOT NULL,
        "as_of" timestamptz NOT NULL,
        PRIMARY KEY ("follower_id", "following_id")
      )`);
    await queryRunner.query(`CREATE INDEX "follows_following" ON "${s}"."follows" ("following_id")`);
    await queryRunner.query(`
      CREATE TABLE "${s}"."fans_counts" (
        "user_id" bigint PRIMARY KEY,
        "fans_count" int NOT NULL,
        "as_of" timestamptz NOT NULL
      )`);
    await queryRunner.query(`CREATE INDEX "fans_counts_most" ON "${s}"."fans_counts" ("fans_count" DESC, "user_id")`);
    // The 关注 feed reads each followed author's newest notes: one short index range per author.
    await queryRunner.query(`CREATE INDEX "posts_author_newest" ON "${s}"."posts" ("author_id", "created_at" DESC, "id" DESC) WHERE NOT "is_draft"`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`DROP INDEX "${s}"."posts_author_newest"`);
    await queryRunner.query(`DROP TABLE "${s}"."fans_counts", "${s}"."follows"`);
  }
}
