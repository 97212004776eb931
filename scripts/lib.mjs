// Shared steps of `npm start` and `npm test`: install what is missing, then build.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
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

/**
 * Installs from the lock file when node_modules is missing or older than it. `npm install` rather than
 * `npm ci`: the lock holds only the platform packages the registry here serves (rollup's Linux builds,
 * not its other optional ones), which `npm ci` rejects as out of sync while `npm install` honours it as is.
 */
export function installDependencies() {
  const marker = join(root, 'node_modules', '.package-lock.json');
  const lock = join(root, 'package-lock.json');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  console.log('› installing dependencies');
  run('npm', ['install', '--no-audit', '--no-fund']);
}

/**
 * Installs the pinned Python tools of scripts/requirements-tools.txt (schemathesis, which the contract and fuzz
 * tests run) into a virtualenv of the project's own, once per change of that file.
 */
export function installTools() {
  const venv = join(root, '.tools', 'schemathesis');
  const requirements = join(root, 'scripts', 'requirements-tools.txt');
  const marker = join(venv, 'installed-requirements.txt');
  const wanted = readFileSync(requirements, 'utf8');
  if (existsSync(marker) && readFileSync(marker, 'utf8') === wanted) return;
  console.log('› installing Python test tools (schemathesis) into .tools/schemathesis');
  run('python3', ['-m', 'venv', '--clear', venv]);
  run(join(venv, 'bin', 'pip'), ['install', '--quiet', '--disable-pip-version-check', '-r', requirements]);
  writeFileSync(marker, wanted);
}

export function build() {
  console.log('› building');
  run('npx', ['nx', 'run-many', '-t', 'build', '--outputStyle=static']);
}
