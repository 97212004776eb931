import { schemaOf } from '@shiliu/platform';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The list the web app bundled (apps/web/public/banned-words.txt) until the server owned it. */
const FIRST_WORDS = ['赌博', '博彩', '代开发票', '办证', '刷单', '色情', '毒品', '枪支'];

/**
 * The administrators' banned-word list (issue 40): its words, and one row holding its version, which every change
 * takes the next of under a row lock, so two changes never announce lists out of order.
 */
export class AuthBannedWords1764800000000 implements MigrationInterface {
  name = 'AuthBannedWords1764800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`
      CREATE TABLE "${s}"."banned_words" (
        "id" bigserial PRIMARY KEY,
        "word" text NOT NULL UNIQUE,
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE TABLE "${s}"."banned_word_list" ("id" smallint PRIMARY KEY DEFAULT 1 CHECK ("id" = 1), "version" bigint NOT NULL)`);
    await queryRunner.query(`INSERT INTO "${s}"."banned_word_list" ("version") VALUES (1)`);
    await queryRunner.query(`INSERT INTO "${s}"."banned_words" ("word") SELECT unnest($1::text[])`, [FIRST_WORDS]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`DROP TABLE "${s}"."banned_word_list"`);
    await queryRunner.query(`DROP TABLE "${s}"."banned_words"`);
  }
}
