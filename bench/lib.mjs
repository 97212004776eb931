// What every benchmark does before it measures: the local infrastructure's addresses, a database of its own, the
// services as separate processes (stopped when the benchmark ends), waiting for them, and reading percentiles.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { NODE_FLAGS } from '../scripts/lib.mjs';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The environment with infra/local's addresses filled in (`infra/local/up` writes them); throws when one is missing. */
export function benchEnv(required = ['DATABASE_URL', 'KAFKA_BROKERS', 'REDIS_URL', 'S3_ENDPOINT', 'S3_ACCESS_KEY', 'S3_SECRET_KEY']) {
  const env = { ...process.env };
  const envFile = join(root, 'infra/local/.run/test.env');
  if (existsSync(envFile)) {
    for (const line of readFileSync(envFile, 'utf8').split('\n')) {
      const match = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
      if (match && env[match[1]] === undefined) env[match[1]] = match[2];
    }
  }
  for (const name of required) {
    if (!env[name]) throw new Error(`${name} is not set: run infra/local/up first`);
  }
  return env;
}

/** Drops and creates the database `name` beside the one in `env.DATABASE_URL`; answers its URL. */
export async function freshDatabase(env, name) {
  const admin = new pg.Client({ connectionString: env.DATABASE_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(env.DATABASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A fresh token key pair (token-private.pem, token-public.pem) in `directory`, or in a new temporary one; answers it. */
export function tokenKeys(directory = mkdtempSync(join(tmpdir(), 'shiliu-bench-keys-'))) {
  execFileSync(process.execPath, [join(root, 'scripts/generate-token-keys.mjs'), directory], { stdio: 'ignore' });
  return directory;
}

const children = [];
/**
 * Stops every process `start` started (also done when the benchmark exits); resolves once they have exited, so that
 * a profile asked for with PROFILE_DIR gets written.
 */
export function stopAll() {
  const running = children.filter((child) => child.exitCode === null && child.signalCode === null);
  const exited = Promise.all(running.map((child) => new Promise((resolve) => child.once('exit', resolve))));
  running.forEach((child) => child.kill('SIGTERM'));
  return exited;
}
process.on('exit', stopAll);
process.on('SIGINT', () => process.exit(130));

/**
 * Starts an entry point of the workspace as a process of its own, stopped when the benchmark exits: a TypeScript
 * source through ts-node, or a built `.js` (which measures memory as a deployment has it, without the compiler).
 * With PROFILE_DIR set, the process runs under --cpu-prof and leaves `<name>.cpuprofile` there when it stops
 * (bench/hot-paths/profile-summary.mjs reads it).
 */
export function start(env, name, entry, extra) {
  const loader = entry.endsWith('.ts') ? ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register'] : [];
  const profile = process.env.PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.PROFILE_DIR}`, `--cpu-prof-name=${name.replaceAll(' ', '-')}.cpuprofile`] : [];
  if (!existsSync(join(root, entry))) throw new Error(`${entry} is missing: build it first (npm run build)`);
  const child = spawn(process.execPath, [...NODE_FLAGS, ...profile, ...loader, entry], {
    cwd: root,
    env: { ...env, TS_NODE_PROJECT: join(root, 'tsconfig.base.json'), LOG_LEVEL: 'warn', NODE_ENV: 'production', METRICS_PORT: '0', ...extra },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  child.on('exit', (code) => code && console.error(`${name} exited with ${code}`));
  children.push(child);
  return child;
}

/** Runs one step of a benchmark's set-up and says how long it took. */
export async function timed(what, run) {
  const started = Date.now();
  const result = await run();
  console.log(`  ${what}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return result;
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `url` answers 2xx. */
export async function waitFor(url, what, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not up yet */
    }
    await sleep(500);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The value below which a share `q` of `values` lies. */
export function percentile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/**
 * CPU seconds used so far by each named process and everything it started (PostgreSQL's backends, say), read from
 * /proc: Linux only, else null. The difference of two readings tells which process a case kept busy.
 */
export function cpuSecondsOf(pids) {
  if (!existsSync('/proc/self/stat')) return null;
  const own = new Map();
  const parents = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const fields = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ');
      // Its own time and that of its children already reaped (a closed PostgreSQL connection's backend).
      own.set(Number(entry), (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / 100);
      parents.push([Number(entry), Number(fields[1])]);
    } catch {
      /* ended meanwhile */
    }
  }
  // A watched process started by another (the services by the benchmark itself) counts only as itself.
  const watched = new Set(Object.values(pids));
  const total = (pid) => parents.reduce((sum, [child, parent]) => (parent === pid && !watched.has(child) ? sum + total(child) : sum), own.get(pid) ?? 0);
  return Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, total(pid)]));
}

/** The pid infra/local/up recorded for one piece of the local infrastructure (postgres, elasticsearch, …), or null. */
export function infraPid(name) {
  const file = join(root, 'infra/local/.run/pids', `${name}.pid`);
  return existsSync(file) ? Number(readFileSync(file, 'utf8').trim()) : null;
}
