import { schemaOf } from '@shiliu/platform';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Each found user's card counts their notes (public-side.md §7 `users` in search answers): by author, searchable notes only. */
export class SearchPostsByAuthor1764200000000 implements MigrationInterface {
  name = 'SearchPostsByAuthor1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`CREATE INDEX "posts_author" ON "${s}"."posts" ("author_id") WHERE "published" AND NOT "deleted"`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`DROP INDEX "${s}"."posts_author"`);
  }
}
