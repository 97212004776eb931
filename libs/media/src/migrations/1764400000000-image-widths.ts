import { schemaOf } from '@shiliu/platform';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each stored image whose widths are settled: made (on upload or by the backfill), unreadable, or not a still image
 * that has any. The backfill asks this table, not object storage, what is left, so a pass over a campus's million
 * images reads only the new ones.
 */
export class ImageWidths1764400000000 implements MigrationInterface {
  name = 'ImageWidths1764400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "${schemaOf(queryRunner)}"."image_widths" (
        "key" text PRIMARY KEY,
        "outcome" text NOT NULL CHECK ("outcome" IN ('made', 'unreadable', 'none')),
        "settled_at" timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "${schemaOf(queryRunner)}"."image_widths"`);
  }
}
