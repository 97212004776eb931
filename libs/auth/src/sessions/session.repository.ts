import { Injectable } from '@nestjs/common';
import { type Audience, rowsOf } from '@shiliu/platform';
import type { EntityManager } from 'typeorm';

/** A refresh token's session as a refresh finds it. */
export interface RefreshTarget {
  session_id: string;
  subject_id: string;
  used_at: Date | null;
  revoked_at: Date | null;
  expired: boolean;
}

/** Sessions, one per signed-in device, and their chain of refresh tokens (stored only as hashes). */
@Injectable()
export class SessionRepository {
  async insert(
    manager: EntityManager,
    session: { id: string; audience: Audience; subjectId: string; userAgent: string | null; ip: string | null; days: number },
  ): Promise<void> {
    await rowsOf(
      manager,
      `INSERT INTO "sessions" ("id", "audience", "subject_id", "user_agent", "ip", "expires_at")
       VALUES ($1, $2, $3, $4, $5, now() + make_interval(days => $6))`,
      [session.id, session.audience, session.subjectId, session.userAgent, session.ip, session.days],
    );
  }

  async addRefreshToken(manager: EntityManager, tokenHash: string, sessionId: string): Promise<void> {
    await rowsOf(manager, `INSERT INTO "refresh_tokens" ("token_hash", "session_id") VALUES ($1, $2)`, [tokenHash, sessionId]);
  }

  /** Locks the token and its session until the transaction ends, so that two refreshes with one token cannot both pass. */
  async findForRefresh(manager: EntityManager, tokenHash: string, audience: Audience): Promise<RefreshTarget | null> {
    const [row] = await rowsOf<RefreshTarget>(
      manager,
      `SELECT t."used_at", s."id" AS "session_id", s."subject_id", s."revoked_at", s."expires_at" < now() AS "expired"
         FROM "refresh_tokens" t JOIN "sessions" s ON s."id" = t."session_id"
        WHERE t."token_hash" = $1 AND s."audience" = $2
        FOR UPDATE OF t, s`,
      [tokenHash, audience],
    );
    return row ?? null;
  }

  /** Spends a refresh token and marks its session as used now. */
  async spend(manager: EntityManager, tokenHash: string, sessionId: string): Promise<void> {
    await rowsOf(manager, `UPDATE "refresh_tokens" SET "used_at" = now() WHERE "token_hash" = $1`, [tokenHash]);
    await rowsOf(manager, `UPDATE "sessions" SET "last_used_at" = now() WHERE "id" = $1`, [sessionId]);
  }

  async revoke(manager: EntityManager, sessionId: string): Promise<void> {
    await rowsOf(manager, `UPDATE "sessions" SET "revoked_at" = now() WHERE "id" = $1 AND "revoked_at" IS NULL`, [sessionId]);
  }

  /** Revokes every live session of a subject but `except` (when given); answers the ids revoked. */
  async revokeAll(manager: EntityManager, audience: Audience, subjectId: string, except: string | null): Promise<string[]> {
    const rows = await rowsOf<{ id: string }>(
      manager,
      `UPDATE "sessions" SET "revoked_at" = now()
        WHERE "audience" = $1 AND "subject_id" = $2 AND "revoked_at" IS NULL AND ($3::uuid IS NULL OR "id" <> $3::uuid)
        RETURNING "id"`,
      [audience, subjectId, except],
    );
    return rows.map((row) => row.id);
  }

  async revokedWithin(manager: EntityManager, seconds: number): Promise<string[]> {
    const rows = await rowsOf<{ id: string }>(manager, `SELECT "id" FROM "sessions" WHERE "revoked_at" > now() - make_interval(secs => $1)`, [seconds]);
    return rows.map((row) => row.id);
  }

  async isLive(manager: EntityManager, sessionId: string): Promise<boolean> {
    const rows = await rowsOf(manager, `SELECT 1 FROM "sessions" WHERE "id" = $1 AND "revoked_at" IS NULL AND "expires_at" > now()`, [sessionId]);
    return rows.length > 0;
  }
}
