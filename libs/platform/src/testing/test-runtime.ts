import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateTokenKeyPair, type TokenKeyPair } from '../auth/key-pair';
import { MemoryRevocationList } from '../auth/revocation-list';
import { TokenVerifier } from '../auth/token-verifier';
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
    secrets: { tokenPrivateKeyPem: keys.privateKeyPem },
    ...overrides,
    keys,
    bus,
  };
}
