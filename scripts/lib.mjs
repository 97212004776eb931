// Shared steps of `npm start` and `npm test`: install what is missing, then build.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Node.js flags of the processes the local scripts start; the Dockerfile's NODE_OPTIONS (docs/configuration.md, "Node.js flags"). */
export const NODE_FLAGS = ['--max-semi-space-size=8'];

export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options });
  if (result.status !== 0) {
    console.error(`\n✗ ${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status || 1);
  }
}

/**
 * Installs from the lock file when node_modules is missing or older than it. `npm install` rather than
 * `npm ci`: it keeps what an existing node_modules already has instead of removing it first. The lock lists
 * every platform's optional builds (rollup's, msgpackr's), so neither command rewrites it on this machine.
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
 * tests run; kubernetes-validate, which checks the Kubernetes manifests) into a virtualenv of the project's own,
 * once per change of that file.
 */
export function installTools() {
  const venv = join(root, '.tools', 'schemathesis');
  const requirements = join(root, 'scripts', 'requirements-tools.txt');
  const marker = join(venv, 'installed-requirements.txt');
  const wanted = readFileSync(requirements, 'utf8');
  if (existsSync(marker) && readFileSync(marker, 'utf8') === wanted) return;
  console.log('› installing Python test tools (schemathesis, kubernetes-validate) into .tools/schemathesis');
  run('python3', ['-m', 'venv', '--clear', venv]);
  run(join(venv, 'bin', 'pip'), ['install', '--quiet', '--disable-pip-version-check', '-r', requirements]);
  writeFileSync(marker, wanted);
}

/**
 * The tools ops/test runs on the manifests, alert rules and compose file, into .tools/bin, once per change of this
 * list: kustomize and kube-score built through the Go module proxy; promtool from Debian's prometheus package,
 * unpacked rather than installed (building it through the proxy fails: some of its modules are not served there,
 * and it would take many minutes); the Compose specification's JSON schema from the compose-go module.
 */
const opsTools = {
  go: ['sigs.k8s.io/kustomize/kustomize/v5@v5.8.2', 'github.com/zegl/kube-score/cmd/kube-score@v1.20.0'],
  deb: 'prometheus',
  composeSchema: 'github.com/compose-spec/compose-go/v2@v2.16.2',
};

export function installOpsTools() {
  const tools = join(root, '.tools');
  const bin = join(tools, 'bin');
  const marker = join(bin, 'installed-ops-tools.json');
  const wanted = JSON.stringify(opsTools);
  if (existsSync(marker) && readFileSync(marker, 'utf8') === wanted) return;
  console.log('› installing manifest and alert-rule checkers (kustomize, kube-score, promtool, compose schema) into .tools');
  mkdirSync(bin, { recursive: true });
  const goEnv = { ...process.env, GOBIN: bin, CGO_ENABLED: '0', GOFLAGS: '-buildvcs=false -trimpath' };
  for (const module of opsTools.go) run('go', ['install', module], { env: goEnv });

  const deb = join(tools, 'deb');
  rmSync(deb, { recursive: true, force: true });
  mkdirSync(deb);
  if (spawnSync('apt-get', ['download', opsTools.deb], { cwd: deb, stdio: 'inherit' }).status !== 0) {
    run('apt-get', ['update']);
    run('apt-get', ['download', opsTools.deb], { cwd: deb });
  }
  const file = readdirSync(deb).find((name) => name.endsWith('.deb'));
  run('dpkg-deb', ['-x', file, 'unpacked'], { cwd: deb });
  copyFileSync(join(deb, 'unpacked', 'usr', 'bin', 'promtool'), join(bin, 'promtool'));
  rmSync(deb, { recursive: true, force: true });

  const download = spawnSync('go', ['mod', 'download', '-json', opsTools.composeSchema], { cwd: tools, encoding: 'utf8', env: { ...goEnv, GOFLAGS: '-mod=mod' } });
  if (download.status !== 0) {
    console.error(`✗ go mod download ${opsTools.composeSchema} failed:\n${download.stdout}${download.stderr}`);
    process.exit(1);
  }
  // The module cache's files are read-only: an earlier copy is removed rather than written over.
  rmSync(join(tools, 'compose-spec.json'), { force: true });
  copyFileSync(join(JSON.parse(download.stdout).Dir, 'schema', 'compose-spec.json'), join(tools, 'compose-spec.json'));
  writeFileSync(marker, wanted);
}

export function build() {
  console.log('› building');
  run('npx', ['nx', 'run-many', '-t', 'build', '--outputStyle=static']);
}
