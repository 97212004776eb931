import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@shiliu/platform';

/** Accounts and profiles, sessions with their refresh-token chain, administrators, verification applications. */
export class AuthTables1763790000000 implements MigrationInterface {
  name = 'AuthTables1763790000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`
      CREATE TABLE "${s}"."users" (
        "id" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        "user_id" varchar(15) NOT NULL,
        "nickname" varchar(10) NOT NULL,
        "password_hash" text NOT NULL,
        "avatar" text NOT NULL,
        "bio" varchar(200) NOT NULL,
        "location" varchar(50) NOT NULL,
        "verified" smallint NOT NULL DEFAULT 0,
        "gender" varchar(4),
        "zodiac_sign" varchar(4),
        "mbti" varchar(4),
        "education" varchar(8),
        "major" varchar(11),
        "interests" jsonb NOT NULL DEFAULT '[]',
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now()
      )`);
    // Product IDs are unique regardless of case, so "Alice" cannot impersonate "alice".
    await queryRunner.query(`CREATE UNIQUE INDEX "users_user_id_unique" ON "${s}"."users" (lower("user_id"))`);
    await queryRunner.query(`CREATE INDEX "users_nickname" ON "${s}"."users" ("nickname")`);
    await queryRunner.query(`
      CREATE TABLE "${s}"."sessions" (
        "id" uuid PRIMARY KEY,
        "audience" varchar(5) NOT NULL CHECK ("audience" IN ('user', 'admin')),
        "subject_id" bigint NOT NULL,
        "user_agent" varchar(300),
        "ip" varchar(64),
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "last_used_at" timestamptz NOT NULL DEFAULT now(),
        "expires_at" timestamptz NOT NULL,
        "revoked_at" timestamptz
      )`);
    await queryRunner.query(`CREATE INDEX "sessions_subject" ON "${s}"."sessions" ("audience", "subject_id")`);
    await queryRunner.query(`
      CREATE TABLE "${s}"."refresh_tokens" (
        "token_hash" char(64) PRIMARY KEY,
        "session_id" uuid NOT NULL REFERENCES "${s}"."sessions" ("id") ON DELETE CASCADE,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "used_at" timestamptz
      )`);
    await queryRunner.query(`CREATE INDEX "refresh_tokens_session" ON "${s}"."refresh_tokens" ("session_id")`);
    await queryRunner.query(`
      CREATE TABLE "${s}"."admins" (
        "id" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        "username" varchar(50) NOT NULL,
        "password_hash" text NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "last_login_at" timestamptz
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX "admins_username_unique" ON "${s}"."admins" (lower("username"))`);
    await queryRunner.query(`
      CREATE TABLE "${s}"."verification_applications" (
        "id" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        "account_id" bigint NOT NULL REFERENCES "${s}"."users" ("id") ON DELETE CASCADE,
        "type" smallint NOT NULL CHECK ("type" IN (1, 2)),
        "status" smallint NOT NULL DEFAULT 0 CHECK ("status" IN (0, 1, 2)),
        "content" jsonb NOT NULL,
        "reject_reason" varchar(200),
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "reviewed_at" timestamptz
      )`);
    await queryRunner.query(`CREATE INDEX "verification_account" ON "${s}"."verification_applications" ("account_id")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    for (const table of ['verification_applications', 'admins', 'refresh_tokens', 'sessions', 'users']) {
      await queryRunner.query(`DROP TABLE "${s}"."${table}"`);
    }
  }
}
