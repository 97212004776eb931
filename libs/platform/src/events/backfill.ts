import { type AnnouncedEntity, backfillRequested } from '@shiliu/contracts';
import type { Logger } from 'pino';
import type { DataSource, EntityManager } from 'typeorm';
import { backfillAnnounced } from '../metrics/metrics';
import type { ReadModel } from '../service/service-definition';
import { Outbox } from './outbox';

/** Rows a backfill reads, locks and announces in one transaction: a live write waits for at most this many. */
export const ANNOUNCE_BATCH_SIZE = 200;
/** How often a backfill says in the log how far it has come. */
const PROGRESS_EVERY_MS = 5_000;

/**
 * Asks the owners of the given entities to re-announce every one of them: a `backfill.requested` event in the
 * asking service's own outbox, so it travels like any event in both run modes and never reads another's tables.
 */
export async function requestBackfill(dataSource: DataSource, consumer: string, entities: AnnouncedEntity[]): Promise<void> {
  await dataSource.transaction((manager) => new Outbox().add(manager, backfillRequested, { consumer, entities }));
}

/** At start-up: a read model that is empty (new, or dropped to be rebuilt) asks for what it follows. */
export async function requestBackfillForEmptyReadModels(dataSource: DataSource, consumer: string, readModels: ReadModel[], logger: Logger): Promise<void> {
  const wanted = new Set<AnnouncedEntity>();
  for (const model of readModels) {
    const rows: unknown[] = await dataSource.query(`SELECT 1 FROM "${model.table}" LIMIT 1`);
    if (rows.length === 0) model.follows.forEach((entity) => wanted.add(entity));
  }
  if (wanted.size === 0) return;
  await requestBackfill(dataSource, consumer, [...wanted]);
  logger.info({ entities: [...wanted] }, 'read model empty: backfill requested');
}

/** How an owner re-announces one kind of entity: its rows in key order, and what it writes for them. */
export interface Announcement<Row> {
  entity: AnnouncedEntity;
  /** Up to `limit` rows with a key above `after`, in key order, read FOR SHARE. */
  read(manager: EntityManager, after: number, limit: number): Promise<Row[]>;
  keyOf(row: Row): number;
  /** Writes the rows' announcements to the outbox through `manager`. */
  announce(manager: EntityManager, rows: Row[]): Promise<void>;
}

/**
 * Re-announces every row of an entity, a batch per transaction that reads its rows FOR SHARE and writes their
 * announcements. A change committing meanwhile is still either in an announcement or announced after it, as with
 * one transaction, but a live like or edit waits for at most one batch instead of the whole table (a transaction
 * over 20,000 notes held every like behind it for over a minute). A process that stops half-way announces again
 * from the start when the request is delivered again; consumers take an announcement twice as they take it once.
 */
export async function announceInBatches<Row>(dataSource: DataSource, logger: Logger, announcement: Announcement<Row>): Promise<number> {
  const service = (dataSource.options as { schema?: string }).schema ?? 'public';
  const { entity } = announcement;
  const started = Date.now();
  let reported = started;
  let after = 0;
  let announced = 0;
  logger.info({ entity }, 'backfill: announcing');
  for (;;) {
    const rows = await dataSource.transaction(async (manager) => {
      const batch = await announcement.read(manager, after, ANNOUNCE_BATCH_SIZE);
      if (batch.length > 0) await announcement.announce(manager, batch);
      return batch;
    });
    if (rows.length === 0) break;
    after = announcement.keyOf(rows[rows.length - 1]);
    announced += rows.length;
    backfillAnnounced.inc({ service, entity }, rows.length);
    if (Date.now() - reported >= PROGRESS_EVERY_MS) {
      reported = Date.now();
      logger.info({ entity, announced }, 'backfill: announcing, so far');
    }
    if (rows.length < ANNOUNCE_BATCH_SIZE) break;
  }
  logger.info({ entity, announced, ms: Date.now() - started }, 'backfill: announced');
  return announced;
}
