import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

/**
 * The URL of a piece of local infrastructure. `npm test` brings them up (infra/local/up); a test never
 * skips because one is missing: it fails and says which.
 */
export function requireEnv(name: 'DATABASE_URL' | 'REDIS_URL' | 'KAFKA_BROKERS' | 'ELASTICSEARCH_URL' | 'S3_ENDPOINT' | 'S3_ACCESS_KEY' | 'S3_SECRET_KEY'): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: start the local infrastructure with infra/local/up (npm test does this)`);
  return value;
}

/**
 * What a service process started by a test needs in distributed mode: the database at `databaseUrl`, the local
 * Kafka, Redis and MinIO, and the key that checks its sessions. With `topicPrefix`, the run's topics are its own, so a
 * consumer group reading from the beginning never meets another run's events.
 */
export function distributedServiceEnv(options: { databaseUrl: string; publicKeyPem: string; topicPrefix?: string }): NodeJS.ProcessEnv {
  return {
    DATABASE_URL: options.databaseUrl,
    KAFKA_BROKERS: requireEnv('KAFKA_BROKERS'),
    ...(options.topicPrefix === undefined ? {} : { KAFKA_TOPIC_PREFIX: options.topicPrefix }),
    KAFKA_SESSION_TIMEOUT_MS: '6000',
    REDIS_URL: requireEnv('REDIS_URL'),
    S3_ENDPOINT: requireEnv('S3_ENDPOINT'),
    S3_ACCESS_KEY: requireEnv('S3_ACCESS_KEY'),
    S3_SECRET_KEY: requireEnv('S3_SECRET_KEY'),
    AUTH_PUBLIC_KEY: options.publicKeyPem,
    NODE_ENV: 'test',
  };
}

/** Thrown by a waitFor check to stop waiting at once (say, the process being waited for has died). */
export class WaitAborted extends Error {}

/**
 * Checks until `check` holds, every `everyMs`, and fails once it has not held by `timeoutMs`. The last check starts at
 * the deadline, not before it, so that a documented bound given as `timeoutMs` is the bound tested, never less.
 */
export async function waitFor<T>(what: string, check: () => Promise<T | null | undefined | false>, timeoutMs = 60_000, everyMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const result = await check();
      if (result) return result;
    } catch (error) {
      if (error instanceof WaitAborted) throw error;
      lastError = error;
    }
    const left = deadline - Date.now();
    if (left <= 0) break;
    await new Promise((resolve) => setTimeout(resolve, Math.min(everyMs, left)));
  }
  throw new Error(`Timed out waiting for ${what}${lastError ? `: ${String(lastError)}` : ''}`);
}

const repoRoot = join(__dirname, '../../../..');

/**
 * Starts a TypeScript entry point as a separate Node process, compiled on the fly, with the workspace's path
 * aliases. A variable given as undefined is removed from the child's environment.
 */
export function spawnTs(entry: string, args: string[], env: NodeJS.ProcessEnv): ChildProcess & { output: () => string } {
  // METRICS_PORT 0: processes a test starts side by side must not fight over the default management ports.
  // DISABLE_V8_COMPILE_CACHE: ts-node loads TypeScript through v8-compile-cache-lib, whose cache in the temporary
  // directory is read without its lock; a process starting while another saves it can read a torn cache, which
  // V8 does not check, and die in its deserializer with SIGTRAP (seen in CI; nodejs/node#51555).
  const merged: NodeJS.ProcessEnv = {
    ...process.env,
    TS_NODE_PROJECT: join(repoRoot, 'tsconfig.base.json'),
    DISABLE_V8_COMPILE_CACHE: '1',
    LOG_LEVEL: 'warn',
    METRICS_PORT: '0',
    ...env,
  };
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', entry, ...args], {
    cwd: repoRoot,
    env: Object.fromEntries(Object.entries(merged).filter(([, value]) => value !== undefined)),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return Object.assign(child, { output: () => output });
}

/** Fails a wait at once when the process it waits on has exited. */
export function assertRunning(child: ChildProcess & { output: () => string }): void {
  if (child.exitCode !== null || child.signalCode !== null) {
    throw new WaitAborted(`process exited early (${child.exitCode ?? child.signalCode}):\n${headAndTail(child.output())}`);
  }
}

/** A crash's cause is at the head of what it printed (a fatal error above its native stack), a failure's at the tail. */
export function headAndTail(output: string): string {
  return output.length <= 4000 ? output : `${output.slice(0, 1500)}\n[…]\n${output.slice(-2500)}`;
}

export async function stopProcess(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  await exited;
}

const handedOut = new Set<number>();

/**
 * A TCP port free right now, for a child process to listen on. It is drawn from 10000-19999: below the kernel's
 * ephemeral range (32768 and up), because an ephemeral port can be taken as the local end of any outgoing connection
 * (a Kafka or PostgreSQL client) between this check and the child's bind, and the child then dies with EADDRINUSE;
 * and below the local infrastructure's ports (25432 and up), which a test that restarts a server must find free.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = 10_000 + Math.floor(Math.random() * 10_000);
    if (handedOut.has(port) || !(await canBind(port))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error('no free port between 10000 and 19999');
}

function canBind(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    // Bound on every address, as the services bind: a port free on loopback alone may be taken on 0.0.0.0.
    server.listen(port, '0.0.0.0', () => server.close(() => resolve(true)));
  });
}
