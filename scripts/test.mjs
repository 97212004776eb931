// `npm test`: install, bring up the real local infrastructure, then lint, typecheck, build and every test.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build, installDependencies, installOpsTools, installTools, root, run } from './lib.mjs';

installDependencies();

console.log('› bringing up local infrastructure (infra/local/up)');
run(join(root, 'infra/local/up'), []);
const envFile = join(root, 'infra/local/.run/test.env');
if (!existsSync(envFile)) {
  console.error(`✗ ${envFile} is missing: infra/local/up did not write the service URLs`);
  process.exit(1);
}
// After the local infrastructure, whose packages include python3-venv.
installTools();
installOpsTools();
for (const line of readFileSync(envFile, 'utf8').split('\n')) {
  const match = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
  if (match && process.env[match[1]] === undefined) process.env[match[1]] = match[2];
}

console.log('› lint and typecheck');
run('npx', ['nx', 'run-many', '-t', 'lint', 'typecheck', '--outputStyle=static']);
build();

console.log('› tests');
const report = join(root, 'tmp', 'jest-report.json');
rmSync(report, { force: true });
mkdirSync(join(root, 'tmp'), { recursive: true });
const jest = spawnSync('npx', ['jest', '--runInBand', '--json', `--outputFile=${report}`], { cwd: root, stdio: 'inherit', env: process.env });
let summary = null;
if (existsSync(report)) summary = JSON.parse(readFileSync(report, 'utf8'));
if (summary) {
  const failed = summary.numFailedTests + summary.numRuntimeErrorTestSuites;
  console.log(`\ntests: ${summary.numPassedTests} passed, ${failed} failed, ${summary.numPendingTests} skipped`);
  if (summary.numTotalTests === 0) {
    console.error('✗ no test ran');
    process.exit(1);
  }
}
process.exit(jest.status ?? 1);
