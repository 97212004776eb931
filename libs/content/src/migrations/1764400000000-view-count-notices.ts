import { schemaOf } from '@shiliu/platform';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Set (locally to its transaction) by the flush of counted views, the only writer that changes nothing but them. */
export const VIEWS_ONLY_SETTING = 'shiliu.views_only';

/**
 * A flush of counted views announces each note's added views (`v<id>:<views> m`) instead of the note's change
 * (`p<id> m`): a cached note then takes the views on, where `p` dropped it from the cache, together with its
 * comment pages, every five seconds for every note read in between (ReadCache).
 */
export class ViewCountNotices1764400000000 implements MigrationInterface {
  name = 'ViewCountNotices1764400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`
      CREATE FUNCTION "${s}"."view_count_notice"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('cache_' || TG_TABLE_SCHEMA, 'v' || NEW."id" || ':' || (NEW."view_count" - OLD."view_count") || ' m');
        RETURN NULL;
      END $$`);
    await queryRunner.query(`DROP TRIGGER "posts_cache_notice" ON "${s}"."posts"`);
    await queryRunner.query(
      `CREATE TRIGGER "posts_cache_notice" AFTER INSERT OR UPDATE OR DELETE ON "${s}"."posts" FOR EACH ROW
         WHEN (current_setting('${VIEWS_ONLY_SETTING}', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION "${s}"."cache_notice"()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "posts_view_count_notice" AFTER UPDATE OF "view_count" ON "${s}"."posts" FOR EACH ROW
         WHEN (current_setting('${VIEWS_ONLY_SETTING}', true) = 'on') EXECUTE FUNCTION "${s}"."view_count_notice"()`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`DROP TRIGGER "posts_view_count_notice" ON "${s}"."posts"`);
    await queryRunner.query(`DROP TRIGGER "posts_cache_notice" ON "${s}"."posts"`);
    await queryRunner.query(`CREATE TRIGGER "posts_cache_notice" AFTER INSERT OR UPDATE OR DELETE ON "${s}"."posts" FOR EACH ROW EXECUTE FUNCTION "${s}"."cache_notice"()`);
    await queryRunner.query(`DROP FUNCTION "${s}"."view_count_notice"()`);
  }
}
