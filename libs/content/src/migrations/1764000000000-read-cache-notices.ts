import { schemaOf } from '@shiliu/platform';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every change to what the read cache holds is announced on commit, whoever writes it (ReadCache): `p<id>` for a
 * note, with `f` when a feed's membership or time order changes, or else `m` when the moving orders (hot, likes,
 * views) may; `c<note id>` for its comments; `*` for authors and categories, which many notes show.
 */
export class ReadCacheNotices1764000000000 implements MigrationInterface {
  name = 'ReadCacheNotices1764000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`
      CREATE FUNCTION "${s}"."cache_notice"() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE notice text;
      BEGIN
        IF TG_TABLE_NAME = 'posts' THEN
          notice := 'p' || COALESCE(NEW."id", OLD."id");
          IF TG_OP <> 'UPDATE' OR NEW."is_draft" IS DISTINCT FROM OLD."is_draft" OR NEW."created_at" IS DISTINCT FROM OLD."created_at"
             OR NEW."category_id" IS DISTINCT FROM OLD."category_id" OR NEW."type" IS DISTINCT FROM OLD."type" THEN
            notice := notice || ' f';
          ELSIF NEW."hot_score" IS DISTINCT FROM OLD."hot_score" OR NEW."like_count" IS DISTINCT FROM OLD."like_count" OR NEW."view_count" IS DISTINCT FROM OLD."view_count" THEN
            notice := notice || ' m';
          END IF;
        ELSIF TG_TABLE_NAME = 'comments' THEN
          notice := 'c' || COALESCE(NEW."post_id", OLD."post_id");
        ELSE
          notice := '*';
        END IF;
        PERFORM pg_notify('cache_' || TG_TABLE_SCHEMA, notice);
        RETURN NULL;
      END $$`);
    for (const table of ['posts', 'comments', 'authors', 'categories']) {
      await queryRunner.query(`CREATE TRIGGER "${table}_cache_notice" AFTER INSERT OR UPDATE OR DELETE ON "${s}"."${table}" FOR EACH ROW EXECUTE FUNCTION "${s}"."cache_notice"()`);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    for (const table of ['posts', 'comments', 'authors', 'categories']) await queryRunner.query(`DROP TRIGGER "${table}_cache_notice" ON "${s}"."${table}"`);
    await queryRunner.query(`DROP FUNCTION "${s}"."cache_notice"()`);
  }
}
