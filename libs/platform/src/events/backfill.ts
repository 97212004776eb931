import { type AnnouncedEntity, backfillRequested } from '@shiliu/contracts';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import type { ReadModel } from '../service/service-definition';
import { Outbox } from './outbox';

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
