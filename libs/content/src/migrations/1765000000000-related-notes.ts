import { schemaOf } from '@shiliu/platform';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Related notes read each of a note's tags' newest notes: the tag index gains the note id in descending order, so
 * a popular tag gives its newest notes without reading all of them. It serves every look-up by tag the old one did.
 */
export class RelatedNotes1765000000000 implements MigrationInterface {
  name = 'RelatedNotes1765000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`CREATE INDEX "post_tags_tag_newest" ON "${s}"."post_tags" ("tag_id", "post_id" DESC)`);
    await queryRunner.query(`DROP INDEX "${s}"."post_tags_tag"`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`CREATE INDEX "post_tags_tag" ON "${s}"."post_tags" ("tag_id")`);
    await queryRunner.query(`DROP INDEX "${s}"."post_tags_tag_newest"`);
  }
}
