import { schemaOf } from '@shiliu/platform';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A tag's name shows in every note that carries it, so an administrator's rename or deletion of a tag clears the
 * read cache (`*`) like a change of author or category. Only the name and deletions: `use_count` moves with every
 * note published and would otherwise empty the cache each time.
 */
export class ReadCacheTagNotices1764200000000 implements MigrationInterface {
  name = 'ReadCacheTagNotices1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`CREATE TRIGGER "tags_cache_notice" AFTER UPDATE OF "name" OR DELETE ON "${s}"."tags" FOR EACH ROW EXECUTE FUNCTION "${s}"."cache_notice"()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "tags_cache_notice" ON "${schemaOf(queryRunner)}"."tags"`);
  }
}
