import { schemaOf } from '@shiliu/platform';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The likes each note has received, kept from content's reaction and note events, so the back office's users
 * table can show and sort by the likes a user's notes got (admin-and-startup.md §3 like_count). Kept per note
 * rather than per user because the events carry the note's count after each change, not its author's total;
 * `deleted` is a tombstone so a late like event cannot bring a deleted note's likes back.
 */
export class AuthUserLikeCounts1764300000000 implements MigrationInterface {
  name = 'AuthUserLikeCounts1764300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const schema = schemaOf(queryRunner);
    await queryRunner.query(`
      CREATE TABLE "${schema}"."post_likes" (
        "post_id" bigint PRIMARY KEY,
        "author_id" bigint NOT NULL,
        "like_count" integer NOT NULL DEFAULT 0,
        "likes_as_of" timestamptz NOT NULL DEFAULT '-infinity',
        "deleted" boolean NOT NULL DEFAULT false
      )`);
    await queryRunner.query(`CREATE INDEX "post_likes_author" ON "${schema}"."post_likes" ("author_id") WHERE NOT "deleted"`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "${schemaOf(queryRunner)}"."post_likes"`);
  }
}
