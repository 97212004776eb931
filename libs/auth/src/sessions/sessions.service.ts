import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnApplicationBootstrap, UnauthorizedException } from '@nestjs/common';
import { ACCESS_TOKEN_SECONDS, type Audience, messageForStatus, REVOCATION_LIST, type RevocationList } from '@shiliu/platform';
import { DataSource, type EntityManager } from 'typeorm';
import { TokenSigner } from '../security/token-signer';

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
 * Every revocation is announced on the revocation list once it has committed, so the session's access tokens
 * stop working in every service within moments rather than when they expire.
 */
@Injectable()
export class SessionsService implements OnApplicationBootstrap {
  constructor(
    private readonly dataSource: DataSource,
    private readonly signer: TokenSigner,
    @Inject(REVOCATION_LIST) private readonly revocations: RevocationList,
  ) {}

  /** Announces again what was revoked within a token's lifetime: an in-memory list starts empty after a restart. */
  async onApplicationBootstrap(): Promise<void> {
    const rows: { id: string }[] = await this.dataSource.query(
      `SELECT "id" FROM "sessions" WHERE "revoked_at" > now() - make_interval(secs => $1)`,
      [ACCESS_TOKEN_SECONDS],
    );
    await this.revocations.revoke(rows.map((row) => row.id));
  }

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
    return this.dataSource.transaction(async (manager): Promise<TokenPair | { reused: string }> => {
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
        return { reused: found.session_id as string };
      }
      const name = await nameOf(String(found.subject_id));
      if (!name) throw new UnauthorizedException(messageForStatus(401));
      await manager.query(`UPDATE "refresh_tokens" SET "used_at" = now() WHERE "token_hash" = $1`, [hashOf(refreshToken)]);
      await manager.query(`UPDATE "sessions" SET "last_used_at" = now() WHERE "id" = $1`, [found.session_id]);
      return this.issue(manager, { audience, subjectId: String(found.subject_id), name }, found.session_id);
    }).then(async (outcome) => {
      // The revocation above must commit, so the refusal comes after the transaction.
      if ('reused' in outcome) {
        await this.announce([outcome.reused]);
        throw new UnauthorizedException(messageForStatus(401));
      }
      return outcome;
    });
  }

  async revoke(sessionId: string): Promise<void> {
    await this.dataSource.query(`UPDATE "sessions" SET "revoked_at" = now() WHERE "id" = $1 AND "revoked_at" IS NULL`, [sessionId]);
    await this.announce([sessionId]);
  }

  /**
   * Revokes every session of a subject except one (after a password change) or all of them, inside the caller's
   * transaction; the caller passes what this answers to `announce` once that transaction has committed.
   */
  async revokeAll(audience: Audience, subjectId: string, except: string | null, manager: EntityManager): Promise<string[]> {
    const [rows]: [{ id: string }[], number] = await manager.query(
      `UPDATE "sessions" SET "revoked_at" = now()
        WHERE "audience" = $1 AND "subject_id" = $2 AND "revoked_at" IS NULL AND ($3::uuid IS NULL OR "id" <> $3::uuid)
        RETURNING "id"`,
      [audience, subjectId, except],
    );
    return rows.map((row) => row.id);
  }

  /** Makes committed revocations take effect everywhere. */
  async announce(sessionIds: string[]): Promise<void> {
    await this.revocations.revoke(sessionIds);
  }

  /** Whether a session named in an access token is still live (a revoked session's tokens stop working at once). */
  async isLive(sessionId: string): Promise<boolean> {
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
