import { schemaOf } from '@shiliu/platform';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The back office's audit log: every administrator write in any service, from the admin.acted events. */
export class AdminActions1764100000000 implements MigrationInterface {
  name = 'AdminActions1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`
      CREATE TABLE "${s}"."admin_actions" (
        "id" bigserial PRIMARY KEY,
        "event_id" uuid NOT NULL UNIQUE,
        "admin_id" bigint NOT NULL,
        "admin_name" text NOT NULL,
        "service" text NOT NULL,
        "method" text NOT NULL,
        "path" text NOT NULL,
        "entity" text NOT NULL,
        "target_ids" jsonb NOT NULL DEFAULT '[]',
        "created_at" timestamptz NOT NULL
      )`);
    await queryRunner.query(`CREATE INDEX "admin_actions_created_at" ON "${s}"."admin_actions" ("created_at")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "${schemaOf(queryRunner)}"."admin_actions"`);
  }
}
