// Writes the Ed25519 key pair that signs access tokens (private: auth only; public: every service).
// Usage: node scripts/generate-token-keys.mjs <directory>   (keeps existing keys)
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const directory = process.argv[2];
if (!directory) {
  console.error('usage: node scripts/generate-token-keys.mjs <directory>');
  process.exit(2);
}
mkdirSync(directory, { recursive: true });
const publicPath = join(directory, 'token-public.pem');
const privatePath = join(directory, 'token-private.pem');
if (existsSync(publicPath) && existsSync(privatePath)) {
  console.log(`keys already in ${directory}`);
  process.exit(0);
}
const { publicKey, privateKey } = generateKeyPairSync('ed25519');
writeFileSync(privatePath, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
writeFileSync(publicPath, publicKey.export({ type: 'spki', format: 'pem' }), { mode: 0o644 });
console.log(`wrote ${publicPath} and ${privatePath}`);
