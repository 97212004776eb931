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

/**
 * Verifies access tokens with the public key only: the private key never leaves the auth service.
 * A token signed by any other key, for the other audience, expired, older than a token may live, malformed, or
 * missing any of `exp`, `iat`, `aud`, `iss` and the session id `sid`, is refused.
 */
export class TokenVerifier {
  private constructor(private readonly key: KeyLike) {}

  static async fromPem(publicKeyPem: string): Promise<TokenVerifier> {
    return new TokenVerifier(await importSPKI(publicKeyPem, TOKEN_ALGORITHM));
  }

  async verify(token: string, audience: Audience): Promise<Principal | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        issuer: TOKEN_ISSUER,
        audience: audienceClaim[audience],
        algorithms: [TOKEN_ALGORITHM],
        requiredClaims: ['exp', 'iat', 'aud', 'iss'],
        maxTokenAge: ACCESS_TOKEN_SECONDS,
      });
      const { sub, uid, sid } = payload;
      if (typeof sub !== 'string' || typeof uid !== 'string' || typeof sid !== 'string' || !sid) return null;
      return { audience, id: sub, userId: uid, sessionId: sid };
    } catch {
      return null;
    }
  }
}
