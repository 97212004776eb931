import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnApplicationBootstrap, UnauthorizedException } from '@nestjs/common';
import { ACCESS_TOKEN_SECONDS, type Audience, messageForStatus, REVOCATION_LIST, type RevocationList } from '@shiliu/platform';
import { DataSource, type EntityManager } from 'typeorm';
import { TokenSigner } from '../security/token-signer';
import { SessionRepository } from './session.repository';

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
    private readonly sessions: SessionRepository,
    @Inject(REVOCATION_LIST) private readonly revocations: RevocationList,
  ) {}

  /** Announces again what was revoked within a token's lifetime: an in-memory list starts empty after a restart. */
  async onApplicationBootstrap(): Promise<void> {
    await this.revocations.revoke(await this.sessions.revokedWithin(this.dataSource.manager, ACCESS_TOKEN_SECONDS));
  }

  async open(subject: SessionSubject, client: ClientInfo, manager: EntityManager = this.dataSource.manager): Promise<TokenPair> {
    return (await this.openSession(subject, client, manager)).tokens;
  }

  /** `open`, also naming the session (the back office lists it by id). */
  async openSession(subject: SessionSubject, client: ClientInfo, manager: EntityManager = this.dataSource.manager): Promise<{ sessionId: string; tokens: TokenPair }> {
    const sessionId = randomUUID();
    await this.sessions.insert(manager, {
      id: sessionId,
      audience: subject.audience,
      subjectId: subject.subjectId,
      userAgent: client.userAgent?.slice(0, 300) ?? null,
      ip: client.ip ?? null,
      days: REFRESH_TOKEN_DAYS,
    });
    return { sessionId, tokens: await this.issue(manager, subject, sessionId) };
  }

  /** Trades a refresh token for a new pair; the old one is spent. */
  async refresh(refreshToken: string, audience: Audience, nameOf: (subjectId: string) => Promise<string | null>): Promise<TokenPair> {
    return this.dataSource.transaction(async (manager): Promise<TokenPair | { reused: string }> => {
      const found = await this.sessions.findForRefresh(manager, hashOf(refreshToken), audience);
      if (!found || found.revoked_at || found.expired) throw new UnauthorizedException(messageForStatus(401));
      if (found.used_at) {
        await this.sessions.revoke(manager, found.session_id);
        return { reused: found.session_id };
      }
      const name = await nameOf(String(found.subject_id));
      if (!name) throw new UnauthorizedException(messageForStatus(401));
      await this.sessions.spend(manager, hashOf(refreshToken), found.session_id);
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
    // A transaction of its own, so an administrator's audit entry for ending a session commits with it.
    await this.dataSource.transaction((manager) => this.sessions.revoke(manager, sessionId));
    await this.announce([sessionId]);
  }

  /**
   * Revokes every session of a subject except one (after a password change) or all of them, inside the caller's
   * transaction; the caller passes what this answers to `announce` once that transaction has committed.
   */
  async revokeAll(audience: Audience, subjectId: string, except: string | null, manager: EntityManager): Promise<string[]> {
    return this.sessions.revokeAll(manager, audience, subjectId, except);
  }

  /** Makes committed revocations take effect everywhere. */
  async announce(sessionIds: string[]): Promise<void> {
    await this.revocations.revoke(sessionIds);
  }

  /** Whether a session named in an access token is still live (a revoked session's tokens stop working at once). */
  async isLive(sessionId: string): Promise<boolean> {
    return this.sessions.isLive(this.dataSource.manager, sessionId);
  }

  private async issue(manager: EntityManager, subject: SessionSubject, sessionId: string): Promise<TokenPair> {
    const refreshToken = randomBytes(32).toString('base64url');
    await this.sessions.addRefreshToken(manager, hashOf(refreshToken), sessionId);
    const accessToken = await this.signer.sign({ ...subject, sessionId });
    return { access_token: accessToken, refresh_token: refreshToken, expires_in: ACCESS_TOKEN_SECONDS };
  }
}
