import { Injectable } from '@nestjs/common';
import { rowsOf } from '@shiliu/platform';
import type { EntityManager } from 'typeorm';

/** 1 official (organisation), 2 personal. */
export type VerificationType = 1 | 2;
/** 0 pending, 1 approved, 2 rejected. */
export type VerificationStatus = 0 | 1 | 2;

export interface ApplicationRow {
  id: string;
  account_id: string;
  type: VerificationType;
  status: VerificationStatus;
  /** The applicant's fields; ID card and phone numbers are stored encrypted. */
  content: Record<string, string>;
  reject_reason: string | null;
  created_at: Date;
  reviewed_at: Date | null;
}

const COLUMNS = `"id", "account_id", "type", "status", "content", "reject_reason", "created_at", "reviewed_at"`;

/** Verification applications; they go with their account (ON DELETE CASCADE). */
@Injectable()
export class VerificationRepository {
  async insert(manager: EntityManager, accountId: string, type: VerificationType, content: Record<string, string>): Promise<ApplicationRow> {
    const [row] = await rowsOf<ApplicationRow>(
      manager,
      `INSERT INTO "verification_applications" ("account_id", "type", "content") VALUES ($1, $2, $3) RETURNING ${COLUMNS}`,
      [accountId, type, JSON.stringify(content)],
    );
    return row;
  }

  /** Newest first. */
  async allOf(manager: EntityManager, accountId: string): Promise<ApplicationRow[]> {
    return rowsOf<ApplicationRow>(manager, `SELECT ${COLUMNS} FROM "verification_applications" WHERE "account_id" = $1 ORDER BY "created_at" DESC, "id" DESC`, [accountId]);
  }

  async anyOf(manager: EntityManager, accountId: string): Promise<boolean> {
    return (await rowsOf(manager, `SELECT 1 FROM "verification_applications" WHERE "account_id" = $1 LIMIT 1`, [accountId])).length > 0;
  }

  /** Answers how many were removed. */
  async deleteAllOf(manager: EntityManager, accountId: string): Promise<number> {
    return (await rowsOf(manager, `DELETE FROM "verification_applications" WHERE "account_id" = $1 RETURNING "id"`, [accountId])).length;
  }

  /** Answers the application as approved (null when there is none). */
  async approve(manager: EntityManager, id: string): Promise<ApplicationRow | null> {
    const [row] = await rowsOf<ApplicationRow>(
      manager,
      `UPDATE "verification_applications" SET "status" = 1, "reject_reason" = NULL, "reviewed_at" = now() WHERE "id" = $1 RETURNING ${COLUMNS}`,
      [id],
    );
    return row ?? null;
  }

  /** Rejects a pending application; answers it as rejected (null when there is no pending one). */
  async reject(manager: EntityManager, id: string, reason: string | null): Promise<ApplicationRow | null> {
    const [row] = await rowsOf<ApplicationRow>(
      manager,
      `UPDATE "verification_applications" SET "status" = 2, "reject_reason" = $2, "reviewed_at" = now() WHERE "id" = $1 AND "status" = 0 RETURNING ${COLUMNS}`,
      [id, reason],
    );
    return row ?? null;
  }
}
