import { DataSource, type MixedList, type EntitySchema } from 'typeorm';
import { AdminActionRecorder } from '../admin/admin-action-recorder';
import { poolUseSources } from '../metrics/metrics';
import { CounterMovesWriter } from './counter-table';
import { PlatformEvents1763800000000 } from './platform-events.migration';
import { PlatformTables1763780000000 } from './platform-tables.migration';

export interface ServiceDatabaseOptions {
  url: string;
  /** The service's own schema: it never reads another's. */
  schema: string;
  entities: MixedList<Function | string | EntitySchema>;
  migrations: Function[];
  poolSize?: number;
}

/** pg's pool under a data source: what it tells of itself at scrape time, and named statements (preparedRows). */
export interface PgPool {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

/** The pg pool TypeORM runs a data source's queries on (undefined before it is initialised). */
export function pgPoolOf(dataSource: DataSource): PgPool | undefined {
  return (dataSource.driver as unknown as { master?: PgPool }).master;
}

export function createServiceDataSource(options: ServiceDatabaseOptions): DataSource {
  const dataSource = new DataSource({
    type: 'postgres',
    url: options.url,
    schema: options.schema,
    entities: options.entities,
    // The counters first: the recorder asks whether the transaction wrote anything, and their writes count.
    subscribers: [CounterMovesWriter, AdminActionRecorder],
    migrations: [PlatformTables1763780000000, PlatformEvents1763800000000, ...options.migrations],
    migrationsTransactionMode: 'each',
    // The search path keeps a service's raw SQL inside its own schema.
    extra: {
      max: options.poolSize ?? 10,
      application_name: `shiliu-${options.schema}`,
      options: `-c search_path=${options.schema},public`,
    },
    synchronize: false,
    logging: false,
  });
  // Held weakly: a data source a test dropped is forgotten, and its figures with it.
  const held = new WeakRef(dataSource);
  const source = async () => {
    const current = held.deref();
    if (!current) {
      poolUseSources.delete(source);
      return [];
    }
    if (!current.isInitialized) return [];
    const pool = pgPoolOf(current);
    return pool ? [{ service: options.schema, total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }] : [];
  };
  poolUseSources.add(source);
  return dataSource;
}

/**
 * Creates the schema and runs pending migrations under an advisory lock, so replicas starting together
 * do not run the same migration twice.
 */
export async function migrate(dataSource: DataSource): Promise<void> {
  const schema = (dataSource.options as { schema: string }).schema;
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query(`SELECT pg_advisory_lock(hashtext($1))`, [`migrate:${schema}`]);
    await runner.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await runner.query(`SELECT pg_advisory_unlock(hashtext($1))`, [`migrate:${schema}`]).catch(() => undefined);
    await runner.release();
  }
}
