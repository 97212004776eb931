import { schemaOf } from '@shiliu/platform';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What uses each object: a note (`post:<id>`), one of its comments (`post:<id>/comment:<id>`) or an avatar
 * (`avatar:<user id>`). Before it, an object was let go when the author of a deleted note let go of it, even while
 * another of their notes, a comment or their avatar still showed the same bytes. Objects attached before this
 * migration are held by `legacy`, which nothing lets go: kept rather than guessed at. Holders sort bytewise, so that
 * a note's comments (`LIKE 'post:1/%'`) are found through the key.
 */
export class UploadUses1764300000000 implements MigrationInterface {
  name = 'UploadUses1764300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`
      CREATE TABLE "${s}"."upload_uses" (
        "holder" text COLLATE "C" NOT NULL,
        "key" text NOT NULL,
        PRIMARY KEY ("holder", "key")
      )`);
    await queryRunner.query(`CREATE INDEX "upload_uses_key" ON "${s}"."upload_uses" ("key")`);
    await queryRunner.query(`INSERT INTO "${s}"."upload_uses" ("holder", "key") SELECT DISTINCT 'legacy', "key" FROM "${s}"."uploads" WHERE "attached_at" IS NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "${schemaOf(queryRunner)}"."upload_uses"`);
  }
}
