import { importSPKI, jwtVerify, type KeyLike } from 'jose';

export type Audience = 'user' | 'admin';

export const TOKEN_ISSUER = 'shiliu-auth';
export const TOKEN_ALGORITHM = 'EdDSA';
/** How long an access token lives; a revoked session is remembered this long (see RevocationList). */
export const ACCESS_TOKEN_SECONDS = 3600;
export const audienceClaim: Record<Audience, string> = { user: 'shiliu-user', admin: 'shiliu-admin' };

/** Who a verified access token speaks for. `id` is the numeric account id, `userId` the public product ID. */
export interface Principal {
  audience: Audience;
  id: string;
  userId: string;
  /** The session that issued the token: revoking it ends the token at once (see RevocationList). */
  sessionId: string;
}

/** Tokens remembered as verified: about 3 MB at most. */
const REMEMBERED_TOKENS = 10_000;

/**
 * Verifies access tokens with the public key only: the private key never leaves the auth service.
 * A token signed by any other key, for the other audience, expired, older than a token may live, malformed, or
 * missing any of `exp`, `iat`, `aud`, `iss` and the session id `sid`, is refused.
 *
 * A token that passed is remembered until it expires: a signature check is one of the dearest steps of a cheap
 * request, and a student's browser sends the same token with every call for up to an hour. Only the exact string
 * that was checked is remembered, never a refusal (a stream of forged tokens cannot crowd out the good ones), and a
 * revoked session is refused by the RevocationList, which is asked on every call whatever this answers.
 */
export class TokenVerifier {
  private readonly verified = new Map<string, { principal: Principal; until: number }>();

  private constructor(
    private readonly key: KeyLike,
    private readonly now: () => number,
  ) {}

  /** `now` is read on every check (never a captured `Date.now`), so a clock set by a test is the one tokens meet. */
  static async fromPem(publicKeyPem: string, now: () => number = () => Date.now()): Promise<TokenVerifier> {
    return new TokenVerifier(await importSPKI(publicKeyPem, TOKEN_ALGORITHM), now);
  }

  async verify(token: string, audience: Audience): Promise<Principal | null> {
    const remembered = this.verified.get(`${audience} ${token}`);
    if (remembered && remembered.until > this.now()) return remembered.principal;
    try {
      const { payload } = await jwtVerify(token, this.key, {
        issuer: TOKEN_ISSUER,
        audience: audienceClaim[audience],
        algorithms: [TOKEN_ALGORITHM],
        requiredClaims: ['exp', 'iat', 'aud', 'iss'],
        maxTokenAge: ACCESS_TOKEN_SECONDS,
        currentDate: new Date(this.now()),
      });
      const { sub, uid, sid, exp, iat } = payload;
      if (typeof sub !== 'string' || typeof uid !== 'string' || typeof sid !== 'string' || !sid) return null;
      const principal: Principal = { audience, id: sub, userId: uid, sessionId: sid };
      this.remember(`${audience} ${token}`, principal, Math.min(exp!, iat! + ACCESS_TOKEN_SECONDS) * 1000);
      return principal;
    } catch {
      return null;
    }
  }

  private remember(key: string, principal: Principal, until: number): void {
    this.verified.delete(key);
    // Oldest first in a Map's order: past the bound, the tokens checked longest ago go.
    if (this.verified.size >= REMEMBERED_TOKENS) this.verified.delete(this.verified.keys().next().value as string);
    this.verified.set(key, { principal, until });
  }
}
