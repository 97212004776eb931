import { randomUUID } from 'node:crypto';
import type { EventDefinition, EventEnvelope } from '@shiliu/contracts';
import type { DataSource, EntityManager } from 'typeorm';
import { currentContext } from '../context/request-context';

/** Set on a transaction's query runner by `Outbox.add`: the transaction wrote events, and its commit wakes the relay. */
export const OUTBOX_WRITTEN = 'outboxWritten';

/** Each data source's relay, woken by a statement that wrote events and committed on its own (no transaction around it). */
const relays = new WeakMap<DataSource, () => void>();

/** Called by a relay as it starts (and with null as it stops). */
export function relayOf(dataSource: DataSource, wake: (() => void) | null): void {
  if (wake) relays.set(dataSource, wake);
  else relays.delete(dataSource);
}

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
    const envelope = this.envelope(definition, payload, id);
    await manager.query(
      `INSERT INTO "outbox" ("id", "topic", "key", "type", "envelope") VALUES ($1, $2, $3, $4, $5) ON CONFLICT ("id") DO NOTHING`,
      [id, definition.topic, definition.key(payload), definition.type, JSON.stringify(envelope)],
    );
    this.written(manager);
    return envelope;
  }

  /** The envelope `add` writes, for a statement that writes its event itself (completing the payload from its own rows). */
  envelope<T>(definition: EventDefinition<T>, payload: T, id: string = randomUUID()): EventEnvelope<T> {
    const context = currentContext();
    return {
      id,
      type: definition.type,
      version: definition.version,
      occurredAt: new Date().toISOString(),
      actor: context?.actor ?? null,
      correlationId: context?.correlationId ?? id,
      causationId: context?.causationId ?? id,
      payload,
    };
  }

  /** `manager` wrote events: the relay publishes them when its transaction commits, or now if it had none. */
  written(manager: EntityManager): void {
    const runner = manager.queryRunner;
    if (runner?.isTransactionActive) (runner.data as Record<string, unknown>)[OUTBOX_WRITTEN] = true;
    else relays.get(manager.connection)?.();
  }
}
