import { schemaOf } from '@shiliu/platform';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Viewers are marked in Redis or memory now (ViewCounter), so the per-viewer table goes. */
export class ViewsOffTheRowLock1763900000000 implements MigrationInterface {
  name = 'ViewsOffTheRowLock1763900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "${schemaOf(queryRunner)}"."post_views"`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`
      CREATE TABLE "${s}"."post_views" (
        "post_id" bigint NOT NULL REFERENCES "${s}"."posts" ("id") ON DELETE CASCADE,
        "viewer" text NOT NULL,
        "viewed_at" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("post_id", "viewer")
      )`);
    await queryRunner.query(`CREATE INDEX "post_views_viewed_at" ON "${s}"."post_views" ("viewed_at")`);
  }
}
