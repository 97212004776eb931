import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Injectable, UnauthorizedException } from '@nestjs/common';
import { type Audience, messageForStatus } from '@shiliu/platform';
import { DataSource, type EntityManager } from 'typeorm';
import { ACCESS_TOKEN_SECONDS, TokenSigner } from '../security/token-signer';

const REFRESH_TOKEN_DAYS = 30;

export interface TokenPair {
  access_token: string;
  refresh_token: string;
  expires_in: number;
}

export interface SessionSubject {
  audience: Audience;
  subjectId: string;
  /** The product ID for users, the username for administrators. */
  name: string;
}

export interface ClientInfo {
  ip?: string;
  userAgent?: string;
}

function hashOf(refreshToken: string): string {
  return createHash('sha256').update(refreshToken).digest('hex');
}

/**
 * Sessions, one per signed-in device. Refresh tokens are random, stored only as hashes, and rotate on every
 * use; presenting one that was already used means it was stolen or replayed, so the whole session is revoked.
 */
@Injectable()
export class SessionsService {
  constructor(private readonly dataSource: DataSource, private readonly signer: TokenSigner) {}

  async open(subject: SessionSubject, client: ClientInfo, manager: EntityManager = this.dataSource.manager): Promise<TokenPair> {
    const sessionId = randomUUID();
    await manager.query(
      `INSERT INTO "sessions" ("id", "audience", "subject_id", "user_agent", "ip", "expires_at")
       VALUES ($1, $2, $3, $4, $5, now() + make_interval(days => $6))`,
      [sessionId, subject.audience, subject.subjectId, client.userAgent?.slice(0, 300) ?? null, client.ip ?? null, REFRESH_TOKEN_DAYS],
    );
    return this.issue(manager, subject, sessionId);
  }

  /** Trades a refresh token for a new pair; the old one is spent. */
  async refresh(refreshToken: string, audience: Audience, nameOf: (subjectId: string) => Promise<string | null>): Promise<TokenPair> {
    return this.dataSource.transaction(async (manager) => {
      const [found] = await manager.query(
        `SELECT t."used_at", s."id" AS "session_id", s."subject_id", s."revoked_at", s."expires_at" < now() AS "expired"
           FROM "refresh_tokens" t JOIN "sessions" s ON s."id" = t."session_id"
          WHERE t."token_hash" = $1 AND s."audience" = $2
          FOR UPDATE OF t, s`,
        [hashOf(refreshToken), audience],
      );
      if (!found || found.revoked_at || found.expired) throw new UnauthorizedException(messageForStatus(401));
      if (found.used_at) {
        await manager.query(`UPDATE "sessions" SET "revoked_at" = now() WHERE "id" = $1`, [found.session_id]);
        return null;
      }
      const name = await nameOf(String(found.subject_id));
      if (!name) throw new UnauthorizedException(messageForStatus(401));
      await manager.query(`UPDATE "refresh_tokens" SET "used_at" = now() WHERE "token_hash" = $1`, [hashOf(refreshToken)]);
      await manager.query(`UPDATE "sessions" SET "last_used_at" = now() WHERE "id" = $1`, [found.session_id]);
      return this.issue(manager, { audience, subjectId: String(found.subject_id), name }, found.session_id);
    }).then((pair) => {
      // The revocation above must commit, so the refusal comes after the transaction.
      if (!pair) throw new UnauthorizedException(messageForStatus(401));
      return pair;
    });
  }

  async revoke(sessionId: string): Promise<void> {
    await this.dataSource.query(`UPDATE "sessions" SET "revoked_at" = now() WHERE "id" = $1 AND "revoked_at" IS NULL`, [sessionId]);
  }

  /** Revokes every session of a subject except one (after a password change) or all of them. */
  async revokeAll(audience: Audience, subjectId: string, except: string | null, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.query(
      `UPDATE "sessions" SET "revoked_at" = now()
        WHERE "audience" = $1 AND "subject_id" = $2 AND "revoked_at" IS NULL AND ($3::uuid IS NULL OR "id" <> $3::uuid)`,
      [audience, subjectId, except],
    );
  }

  /** Whether a session named in an access token is still live (a revoked session's tokens stop working at once). */
  async isLive(sessionId: string | null): Promise<boolean> {
    if (!sessionId) return false;
    const [row] = await this.dataSource.query(`SELECT 1 FROM "sessions" WHERE "id" = $1 AND "revoked_at" IS NULL AND "expires_at" > now()`, [sessionId]);
    return Boolean(row);
  }

  private async issue(manager: EntityManager, subject: SessionSubject, sessionId: string): Promise<TokenPair> {
    const refreshToken = randomBytes(32).toString('base64url');
    await manager.query(`INSERT INTO "refresh_tokens" ("token_hash", "session_id") VALUES ($1, $2)`, [hashOf(refreshToken), sessionId]);
    const accessToken = await this.signer.sign({ ...subject, sessionId });
    return { access_token: accessToken, refresh_token: refreshToken, expires_in: ACCESS_TOKEN_SECONDS };
  }
}
