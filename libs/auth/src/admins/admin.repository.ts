import { Injectable } from '@nestjs/common';
import { rowsOf } from '@shiliu/platform';
import type { EntityManager } from 'typeorm';

export interface AdminRow {
  id: string;
  username: string;
  created_at: Date;
  last_login_at: Date | null;
}

// Never the password hash: only `findForSignIn` reads it.
const COLUMNS = `"id", "username", "created_at", "last_login_at"`;

/** Administrator accounts. Usernames match regardless of case, as their unique index does. */
@Injectable()
export class AdminRepository {
  /** Answers null when the username is taken. */
  async insert(manager: EntityManager, username: string, passwordHash: string): Promise<AdminRow | null> {
    const [row] = await rowsOf<AdminRow>(
      manager,
      `INSERT INTO "admins" ("username", "password_hash") VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING ${COLUMNS}`,
      [username, passwordHash],
    );
    return row ?? null;
  }

  async any(manager: EntityManager): Promise<boolean> {
    return (await rowsOf(manager, `SELECT 1 FROM "admins" LIMIT 1`)).length > 0;
  }

  async count(manager: EntityManager): Promise<number> {
    const [{ count }] = await rowsOf<{ count: number }>(manager, `SELECT count(*)::int AS "count" FROM "admins"`);
    return count;
  }

  async findById(manager: EntityManager, id: string): Promise<AdminRow | null> {
    const [row] = await rowsOf<AdminRow>(manager, `SELECT ${COLUMNS} FROM "admins" WHERE "id" = $1`, [id]);
    return row ?? null;
  }

  async findForSignIn(manager: EntityManager, username: string): Promise<(AdminRow & { password_hash: string }) | null> {
    const [row] = await rowsOf<AdminRow & { password_hash: string }>(
      manager,
      `SELECT ${COLUMNS}, "password_hash" FROM "admins" WHERE lower("username") = lower($1)`,
      [username],
    );
    return row ?? null;
  }

  async list(manager: EntityManager): Promise<AdminRow[]> {
    return rowsOf<AdminRow>(manager, `SELECT ${COLUMNS} FROM "admins" ORDER BY "id"`);
  }

  async signedIn(manager: EntityManager, id: string): Promise<void> {
    await rowsOf(manager, `UPDATE "admins" SET "last_login_at" = now() WHERE "id" = $1`, [id]);
  }

  async setPasswordHash(manager: EntityManager, id: string, passwordHash: string): Promise<void> {
    await rowsOf(manager, `UPDATE "admins" SET "password_hash" = $2 WHERE "id" = $1`, [id, passwordHash]);
  }

  /** Until the transaction ends, no administrator is added or removed elsewhere, so a count stays true. */
  async lockAll(manager: EntityManager): Promise<void> {
    await rowsOf(manager, `LOCK TABLE "admins" IN SHARE ROW EXCLUSIVE MODE`);
  }

  async delete(manager: EntityManager, id: string): Promise<void> {
    await rowsOf(manager, `DELETE FROM "admins" WHERE "id" = $1`, [id]);
  }
}
