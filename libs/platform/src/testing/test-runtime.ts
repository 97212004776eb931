import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { importPKCS8, SignJWT } from 'jose';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateTokenKeyPair, type TokenKeyPair } from '../auth/key-pair';
import { MemoryRevocationList } from '../auth/revocation-list';
import { audienceClaim, TOKEN_ALGORITHM, TOKEN_ISSUER, TokenVerifier } from '../auth/token-verifier';
import { InProcessEventBus } from '../events/in-process';
import { createLogger } from '../logging/logger';
import type { ServiceRuntime } from '../service/create-service-app';
import { LocalDirectoryStorage } from '../storage/local-directory.storage';
import { requireEnv } from './infra';

/**
 * What a test needs to run service modules as the embedded default does, on the real PostgreSQL of the local
 * infrastructure: fresh token keys, a temporary file store, an in-process bus, quiet logs. Overrides pick Redis etc.
 */
export async function testServiceRuntime(overrides: Partial<ServiceRuntime> = {}): Promise<ServiceRuntime & { keys: TokenKeyPair; bus: InProcessEventBus }> {
  const keys = await generateTokenKeyPair();
  const bus = new InProcessEventBus();
  return {
    databaseUrl: requireEnv('DATABASE_URL'),
    tokenVerifier: await TokenVerifier.fromPem(keys.publicKeyPem),
    revocations: new MemoryRevocationList(),
    objectStorage: new LocalDirectoryStorage(mkdtempSync(join(tmpdir(), 'shiliu-files-'))),
    events: { kind: 'in-process', bus },
    logger: createLogger('test', 'silent'),
    redis: null,
    ...overrides,
    // Added to the test keys' private key rather than replacing it, so that tokens auth signs verify everywhere.
    secrets: { tokenPrivateKeyPem: keys.privateKeyPem, ...overrides.secrets },
    keys,
    bus,
  };
}

/** An access token as auth would issue one to the user `id` (product ID `userId`), signed with the test keys. */
export function signUserToken(keys: TokenKeyPair, id: number, userId: string): Promise<string> {
  return signToken(keys, 'user', id, userId);
}

/** An administrator's access token as auth would issue one, signed with the test keys. */
export function signAdminToken(keys: TokenKeyPair, id: number, username: string): Promise<string> {
  return signToken(keys, 'admin', id, username);
}

async function signToken(keys: TokenKeyPair, audience: keyof typeof audienceClaim, id: number, uid: string): Promise<string> {
  return new SignJWT({ uid, sid: randomUUID() })
    .setProtectedHeader({ alg: TOKEN_ALGORITHM })
    .setSubject(String(id))
    .setIssuer(TOKEN_ISSUER)
    .setAudience(audienceClaim[audience])
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(await importPKCS8(keys.privateKeyPem, TOKEN_ALGORITHM));
}

/** Whether a peer address is this machine's: a test's caller, whom a service trusts as its proxy unless told not to. */
export function isLoopback(address: string): boolean {
  return address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';
}
