import { randomUUID } from 'node:crypto';
import type { EventDefinition, EventEnvelope } from '@shiliu/contracts';
import type { EntityManager } from 'typeorm';
import { currentContext } from '../context/request-context';

/** Set on a transaction's query runner by `Outbox.add`: the transaction wrote events, and its commit wakes the relay. */
export const OUTBOX_WRITTEN = 'outboxWritten';

/**
 * Writes an event into the service's outbox inside the caller's transaction, so the event exists
 * exactly when the change that caused it does. The relay publishes it after commit, woken by the commit itself.
 */
export class Outbox {
  /**
   * `id` names the event when several writes stand for one occurrence (an administrator's call that commits more
   * than one transaction): the first is kept, the others change nothing.
   */
  async add<T>(manager: EntityManager, definition: EventDefinition<T>, payload: T, id: string = randomUUID()): Promise<EventEnvelope<T>> {
    const context = currentContext();
    const envelope: EventEnvelope<T> = {
      id,
      type: definition.type,
      version: definition.version,
      occurredAt: new Date().toISOString(),
      actor: context?.actor ?? null,
      correlationId: context?.correlationId ?? id,
      causationId: context?.causationId ?? id,
      payload,
    };
    await manager.query(
      `INSERT INTO "outbox" ("id", "topic", "key", "type", "envelope") VALUES ($1, $2, $3, $4, $5) ON CONFLICT ("id") DO NOTHING`,
      [id, definition.topic, definition.key(payload), definition.type, JSON.stringify(envelope)],
    );
    if (manager.queryRunner) (manager.queryRunner.data as Record<string, unknown>)[OUTBOX_WRITTEN] = true;
    return envelope;
  }
}
