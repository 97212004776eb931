import { schemaOf } from '@shiliu/platform';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The personalised 推荐 draws the best notes of each of a viewer's favourite categories: one short index range each. */
export class CategoryRecommend1764800000000 implements MigrationInterface {
  name = 'CategoryRecommend1764800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`CREATE INDEX "posts_category_recommend" ON "${s}"."posts" ("category_id", "hot_score" DESC, "id" DESC) WHERE NOT "is_draft"`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "${schemaOf(queryRunner)}"."posts_category_recommend"`);
  }
}
