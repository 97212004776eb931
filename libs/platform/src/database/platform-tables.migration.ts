import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from './schema';

/**
 * The tables every service keeps in its own schema for reliable events: the outbox it publishes from,
 * the inbox that makes its handlers idempotent, and the dead letters of the in-process transport.
 * A NOTIFY on commit wakes the outbox relay at once instead of waiting for its next poll. `seed_runs` records
 * that the embedded default's demo data was loaded, so it is loaded once per data directory.
 */
export class PlatformTables1763780000000 implements MigrationInterface {
  name = 'PlatformTables1763780000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`
      CREATE TABLE "${s}"."outbox" (
        "id" uuid PRIMARY KEY,
        "seq" bigserial NOT NULL UNIQUE,
        "topic" text NOT NULL,
        "key" text NOT NULL,
        "type" text NOT NULL,
        "envelope" jsonb NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "published_at" timestamptz
      )`);
    await queryRunner.query(`CREATE INDEX "outbox_unpublished" ON "${s}"."outbox" ("seq") WHERE "published_at" IS NULL`);
    await queryRunner.query(`
      CREATE TABLE "${s}"."inbox" (
        "event_id" uuid PRIMARY KEY,
        "type" text NOT NULL,
        "handled_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE "${s}"."dead_letters" (
        "id" bigserial PRIMARY KEY,
        "event_id" uuid NOT NULL,
        "type" text NOT NULL,
        "envelope" jsonb NOT NULL,
        "error" text NOT NULL,
        "failed_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE TABLE "${s}"."seed_runs" ("name" text PRIMARY KEY, "ran_at" timestamptz NOT NULL DEFAULT now())`);
    await queryRunner.query(`
      CREATE FUNCTION "${s}"."outbox_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM pg_notify('outbox_${s}', ''); RETURN NULL; END $$`);
    await queryRunner.query(`
      CREATE TRIGGER "outbox_notify" AFTER INSERT ON "${s}"."outbox"
      FOR EACH STATEMENT EXECUTE FUNCTION "${s}"."outbox_notify"()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`DROP TRIGGER "outbox_notify" ON "${s}"."outbox"`);
    await queryRunner.query(`DROP FUNCTION "${s}"."outbox_notify"()`);
    await queryRunner.query(`DROP TABLE "${s}"."seed_runs"`);
    await queryRunner.query(`DROP TABLE "${s}"."dead_letters"`);
    await queryRunner.query(`DROP TABLE "${s}"."inbox"`);
    await queryRunner.query(`DROP TABLE "${s}"."outbox"`);
  }
}
