import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '../database/schema';

/**
 * A service's copy of the banned-word list (`banned-words.changed`): one row, the latest version it heard. Empty at
 * first, so the service asks auth to announce the list (readModels `banned_word_copy`).
 */
export class BannedWordCopy1764810000000 implements MigrationInterface {
  name = 'BannedWordCopy1764810000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`
      CREATE TABLE "${s}"."banned_word_copy" (
        "id" smallint PRIMARY KEY DEFAULT 1 CHECK ("id" = 1),
        "version" bigint NOT NULL,
        "words" jsonb NOT NULL,
        "updated_at" timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "${schemaOf(queryRunner)}"."banned_word_copy"`);
  }
}
