import { schemaOf } from '@shiliu/platform';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The back office's users table: whether an account may sign in (an administrator can switch it off), and each
 * user's follow and fan counts kept from social's follow events (which carry both users' counters after each
 * change); `*_as_of` keeps an older event from overwriting a newer count.
 */
export class AuthAdminBackOffice1764100000000 implements MigrationInterface {
  name = 'AuthAdminBackOffice1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "${schemaOf(queryRunner)}"."users" ADD COLUMN "is_active" boolean NOT NULL DEFAULT true`);
    await queryRunner.query(`
      CREATE TABLE "${schemaOf(queryRunner)}"."user_counters" (
        "user_id" bigint PRIMARY KEY,
        "follow_count" integer NOT NULL DEFAULT 0,
        "follows_as_of" timestamptz NOT NULL DEFAULT '-infinity',
        "fans_count" integer NOT NULL DEFAULT 0,
        "fans_as_of" timestamptz NOT NULL DEFAULT '-infinity'
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "${schemaOf(queryRunner)}"."user_counters"`);
    await queryRunner.query(`ALTER TABLE "${schemaOf(queryRunner)}"."users" DROP COLUMN "is_active"`);
  }
}
