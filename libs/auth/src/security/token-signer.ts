import { Inject, Injectable } from '@nestjs/common';
import { ACCESS_TOKEN_SECONDS, type Audience, audienceClaim, SERVICE_SECRETS, type ServiceSecrets, TOKEN_ALGORITHM, TOKEN_ISSUER } from '@shiliu/platform';
import { importPKCS8, type KeyLike, SignJWT } from 'jose';

export interface AccessClaims {
  audience: Audience;
  subjectId: string;
  /** The product ID for users, the username for administrators. */
  name: string;
  sessionId: string;
}

/** Signs access tokens with the private key that only this service holds; every service verifies with the public key. */
@Injectable()
export class TokenSigner {
  private key: Promise<KeyLike> | null = null;

  constructor(@Inject(SERVICE_SECRETS) private readonly secrets: ServiceSecrets) {}

  async sign(claims: AccessClaims): Promise<string> {
    return new SignJWT({ uid: claims.name, sid: claims.sessionId })
      .setProtectedHeader({ alg: TOKEN_ALGORITHM })
      .setSubject(claims.subjectId)
      .setIssuer(TOKEN_ISSUER)
      .setAudience(audienceClaim[claims.audience])
      .setIssuedAt()
      .setExpirationTime(`${ACCESS_TOKEN_SECONDS}s`)
      .sign(await this.privateKey());
  }

  private privateKey(): Promise<KeyLike> {
    const pem = this.secrets.tokenPrivateKeyPem;
    if (!pem) throw new Error('AUTH_PRIVATE_KEY or AUTH_PRIVATE_KEY_FILE is required by the auth service');
    this.key ??= importPKCS8(pem, TOKEN_ALGORITHM);
    return this.key;
  }
}
