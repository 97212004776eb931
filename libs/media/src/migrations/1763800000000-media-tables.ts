import { schemaOf } from '@shiliu/platform';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Who uploaded each stored object, and whether anything uses it yet. Names are content-addressed, so two users
 * may upload the same bytes: a row per (object, owner), and an object is removed when its last row goes.
 * `source_key` ties a derived object (thumbnail, cover, transcoded video) to the upload it was made from.
 */
export class MediaTables1763800000000 implements MigrationInterface {
  name = 'MediaTables1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`
      CREATE TABLE "${s}"."uploads" (
        "key" text NOT NULL,
        "owner_id" bigint NOT NULL,
        "kind" text NOT NULL CHECK ("kind" IN ('image', 'thumbnail', 'video', 'cover')),
        "source_key" text,
        "size" bigint NOT NULL,
        "attached_at" timestamptz,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("key", "owner_id")
      )`);
    await queryRunner.query(`CREATE INDEX "uploads_unattached" ON "${s}"."uploads" ("created_at") WHERE "attached_at" IS NULL`);
    await queryRunner.query(`CREATE INDEX "uploads_source" ON "${s}"."uploads" ("source_key")`);
    await queryRunner.query(`CREATE INDEX "uploads_owner" ON "${s}"."uploads" ("owner_id")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "${schemaOf(queryRunner)}"."uploads"`);
  }
}
