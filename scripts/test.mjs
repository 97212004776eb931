// `npm test`: install, then bring up the real local infrastructure and its test tools while lint, typecheck and
// build run beside them, then every test. Ends with where the time went.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { installDependencies, root } from './lib.mjs';

const phases = [];
/** Runs `command` and resolves with its exit code; its output goes to `log` when given, else to this terminal. */
function start(command, args, log) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: log ? ['ignore', 'pipe', 'pipe'] : 'inherit', env: process.env });
    if (log) {
      const out = createWriteStream(log);
      child.stdout.pipe(out, { end: false });
      child.stderr.pipe(out, { end: false });
      child.on('close', () => out.end());
    }
    child.on('error', () => resolve(1));
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** A named step of steps, each run after the one before; resolves with the first failure, or null. */
async function phase(name, steps, log) {
  const started = Date.now();
  console.log(`› ${name}${log ? ` (log: ${relative(root, log)})` : ''}`);
  for (const [command, args] of steps) {
    const code = await start(command, args, log);
    if (code !== 0) return { name, failed: `${command} ${args.join(' ')} (exit ${code})`, log };
  }
  phases.push([name, Date.now() - started]);
  console.log(`  ${name}: done in ${seconds(Date.now() - started)}`);
  return null;
}

function seconds(ms) {
  return `${Math.round(ms / 1000)} s`;
}

function fail({ name, failed, log }) {
  if (log && existsSync(log)) process.stderr.write(readFileSync(log, 'utf8').slice(-20_000));
  console.error(`\n✗ ${name}: ${failed} failed`);
  process.exit(1);
}

const begun = Date.now();
mkdirSync(join(root, 'tmp'), { recursive: true });
installDependencies();
phases.push(['install', Date.now() - begun]);

// The infrastructure (first time: packages, downloads and a Go build) and the checks share the two cores; neither needs the other.
const infraLog = join(root, 'tmp', 'test-infrastructure.log');
const [infra, checks] = await Promise.all([
  phase(
    'local infrastructure and test tools',
    [
      [join(root, 'infra/local/up'), []],
      // After the infrastructure, whose packages include python3-venv and Go's toolchain checks.
      [process.execPath, ['-e', "import('./scripts/lib.mjs').then((lib) => { lib.installTools(); lib.installOpsTools(); })"]],
    ],
    infraLog,
  ),
  phase('lint, typecheck and build', [
    ['npx', ['nx', 'run-many', '-t', 'lint', 'typecheck', '--outputStyle=static']],
    ['npx', ['nx', 'run-many', '-t', 'build', '--outputStyle=static']],
  ]),
]);
if (infra) fail(infra);
if (checks) fail(checks);

const envFile = join(root, 'infra/local/.run/test.env');
if (!existsSync(envFile)) {
  console.error(`✗ ${envFile} is missing: infra/local/up did not write the service URLs`);
  process.exit(1);
}
for (const line of readFileSync(envFile, 'utf8').split('\n')) {
  const match = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
  if (match && process.env[match[1]] === undefined) process.env[match[1]] = match[2];
}

console.log('› tests');
const testsStarted = Date.now();
const report = join(root, 'tmp', 'jest-report.json');
rmSync(report, { force: true });
const jest = spawnSync('npx', ['jest', '--maxWorkers=2', '--json', `--outputFile=${report}`], { cwd: root, stdio: 'inherit', env: process.env });
phases.push(['tests', Date.now() - testsStarted]);
let summary = null;
if (existsSync(report)) summary = JSON.parse(readFileSync(report, 'utf8'));

console.log(`\nwhere the time went (${seconds(Date.now() - begun)} in all; the two middle phases run side by side):`);
for (const [name, ms] of phases) console.log(`  ${name.padEnd(36)} ${seconds(ms).padStart(7)}`);
if (summary) {
  const slowest = summary.testResults
    .map((suite) => [relative(root, suite.name), suite.endTime - suite.startTime])
    .sort((a, b) => b[1] - a[1])
    .slice(0, 10);
  console.log('  slowest test files:');
  for (const [file, ms] of slowest) console.log(`    ${file.padEnd(60)} ${seconds(ms).padStart(7)}`);
  const failed = summary.numFailedTests + summary.numRuntimeErrorTestSuites;
  console.log(`\ntests: ${summary.numPassedTests} passed, ${failed} failed, ${summary.numPendingTests} skipped`);
  if (summary.numTotalTests === 0) {
    console.error('✗ no test ran');
    process.exit(1);
  }
}
process.exit(jest.status ?? 1);
