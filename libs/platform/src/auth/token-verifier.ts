import { importSPKI, jwtVerify, type KeyLike } from 'jose';

export type Audience = 'user' | 'admin';

export const TOKEN_ISSUER = 'shiliu-auth';
export const TOKEN_ALGORITHM = 'EdDSA';
export const audienceClaim: Record<Audience, string> = { user: 'shiliu-user', admin: 'shiliu-admin' };

/** Who a verified access token speaks for. `id` is the numeric account id, `userId` the public product ID. */
export interface Principal {
  audience: Audience;
  id: string;
  userId: string;
  sessionId: string | null;
}

/**
 * Verifies access tokens with the public key only: the private key never leaves the auth service.
 * A token signed by any other key, for the other audience, expired or malformed, is refused.
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
      });
      if (typeof payload.sub !== 'string' || typeof payload.uid !== 'string') return null;
      return { audience, id: payload.sub, userId: payload.uid, sessionId: typeof payload.sid === 'string' ? payload.sid : null };
    } catch {
      return null;
    }
  }
}
