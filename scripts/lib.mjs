// Shared steps of `npm start` and `npm test`: install what is missing, then build.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options });
  if (result.status !== 0) {
    console.error(`\n✗ ${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status || 1);
  }
}

/** `npm ci` when node_modules is missing or older than the lock file. */
export function installDependencies() {
  const marker = join(root, 'node_modules', '.package-lock.json');
  const lock = join(root, 'package-lock.json');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  console.log('› installing dependencies (npm ci)');
  run('npm', ['ci', '--no-audit', '--no-fund']);
}

export function build() {
  console.log('› building');
  run('npx', ['nx', 'run-many', '-t', 'build', '--outputStyle=static']);
}
