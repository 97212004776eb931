import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from './schema';

/**
 * What the event platform needs to survive faults: dead letters say which consumer parked them and why, keep
 * what arrived when it was not an envelope, and record when they were replayed; outbox records the transport
 * refused for good are set aside with their error instead of blocking the outbox.
 */
export class PlatformEvents1763800000000 implements MigrationInterface {
  name = 'PlatformEvents1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`
      ALTER TABLE "${s}"."dead_letters"
        ALTER COLUMN "event_id" DROP NOT NULL,
        ALTER COLUMN "type" DROP NOT NULL,
        ALTER COLUMN "envelope" DROP NOT NULL,
        ADD COLUMN "consumer" text,
        ADD COLUMN "reason" text NOT NULL DEFAULT 'handler-failed',
        ADD COLUMN "topic" text,
        ADD COLUMN "key" text,
        ADD COLUMN "raw" text,
        ADD COLUMN "replayed_at" timestamptz`);
    await queryRunner.query(`CREATE INDEX "dead_letters_pending" ON "${s}"."dead_letters" ("id") WHERE "replayed_at" IS NULL`);
    await queryRunner.query(`ALTER TABLE "${s}"."outbox" ADD COLUMN "failed_at" timestamptz, ADD COLUMN "error" text`);
    await queryRunner.query(`DROP INDEX "${s}"."outbox_unpublished"`);
    await queryRunner.query(`CREATE INDEX "outbox_unpublished" ON "${s}"."outbox" ("seq") WHERE "published_at" IS NULL AND "failed_at" IS NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`DROP INDEX "${s}"."outbox_unpublished"`);
    await queryRunner.query(`CREATE INDEX "outbox_unpublished" ON "${s}"."outbox" ("seq") WHERE "published_at" IS NULL`);
    await queryRunner.query(`ALTER TABLE "${s}"."outbox" DROP COLUMN "failed_at", DROP COLUMN "error"`);
    await queryRunner.query(`DROP INDEX "${s}"."dead_letters_pending"`);
    await queryRunner.query(`DELETE FROM "${s}"."dead_letters" WHERE "envelope" IS NULL`);
    await queryRunner.query(`
      ALTER TABLE "${s}"."dead_letters"
        DROP COLUMN "consumer", DROP COLUMN "reason", DROP COLUMN "topic", DROP COLUMN "key", DROP COLUMN "raw", DROP COLUMN "replayed_at",
        ALTER COLUMN "event_id" SET NOT NULL, ALTER COLUMN "type" SET NOT NULL, ALTER COLUMN "envelope" SET NOT NULL`);
  }
}
