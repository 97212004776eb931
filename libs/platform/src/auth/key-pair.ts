import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { exportPKCS8, exportSPKI, generateKeyPair } from 'jose';
import { TOKEN_ALGORITHM } from './token-verifier';

export interface TokenKeyPair {
  publicKeyPem: string;
  privateKeyPem: string;
}

export async function generateTokenKeyPair(): Promise<TokenKeyPair> {
  const { publicKey, privateKey } = await generateKeyPair(TOKEN_ALGORITHM, { crv: 'Ed25519', extractable: true });
  return { publicKeyPem: await exportSPKI(publicKey), privateKeyPem: await exportPKCS8(privateKey) };
}

/**
 * The embedded default's signing keys: made on first start and kept in the data directory, so tokens stay
 * valid across restarts. Distributed deployments give the keys through their secrets instead.
 */
export async function loadOrCreateTokenKeyPair(directory: string): Promise<TokenKeyPair> {
  const publicPath = join(directory, 'token-public.pem');
  const privatePath = join(directory, 'token-private.pem');
  try {
    return { publicKeyPem: await readFile(publicPath, 'utf8'), privateKeyPem: await readFile(privatePath, 'utf8') };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const pair = await generateTokenKeyPair();
  await mkdir(directory, { recursive: true, mode: 0o700 });
  await writeFile(privatePath, pair.privateKeyPem, { mode: 0o600 });
  await writeFile(publicPath, pair.publicKeyPem, { mode: 0o644 });
  return pair;
}

/** The embedded default's key for personal data at rest (32 random bytes, base64), kept beside the token keys. */
export async function loadOrCreateDataKey(directory: string): Promise<string> {
  const path = join(directory, 'data-encryption.key');
  try {
    return (await readFile(path, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const key = randomBytes(32).toString('base64');
  await mkdir(directory, { recursive: true, mode: 0o700 });
  await writeFile(path, key, { mode: 0o600 });
  return key;
}
