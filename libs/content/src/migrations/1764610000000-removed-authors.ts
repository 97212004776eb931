import { schemaOf } from '@shiliu/platform';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The accounts whose removal content has carried out. A write whose author is not yet known is taken on its token's
 * word (the user.registered event may lag behind the token); a removed account's is not, even while its token has
 * not yet been heard of as revoked.
 */
export class RemovedAuthors1764610000000 implements MigrationInterface {
  name = 'RemovedAuthors1764610000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`CREATE TABLE "${s}"."removed_authors" ("id" bigint PRIMARY KEY, "removed_at" timestamptz NOT NULL DEFAULT now())`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "${schemaOf(queryRunner)}"."removed_authors"`);
  }
}
