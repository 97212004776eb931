import { AsyncLocalStorage } from 'node:async_hooks';
import { type AdminActedPayload, adminActed } from '@shiliu/contracts';
import { type EntityManager, type EntitySubscriberInterface, EventSubscriber, type TransactionCommitEvent } from 'typeorm';
import { rowsOf } from '../database/rows';
import { Outbox } from '../events/outbox';

/** The administrator's write a request is making: one event id for every record of it. */
export interface PendingAdminAction {
  eventId: string;
  payload: AdminActedPayload;
  /** Whether a transaction that changed something has carried the record (then nothing is written after the call). */
  recorded: boolean;
}

const pending = new AsyncLocalStorage<PendingAdminAction>();

export function runAsAdminAction<T>(action: PendingAdminAction, work: () => T): T {
  return pending.run(action, work);
}

/** Writes the pending administrator action's `admin.acted` event in `manager`'s transaction (once per id). */
export async function recordAdminAction(manager: EntityManager, action: PendingAdminAction): Promise<void> {
  await new Outbox().add(manager, adminActed, action.payload, action.eventId);
}

/**
 * Puts the `admin.acted` record of an administrator's call into each transaction of that call that changed
 * something, just before it commits: the change and its audit entry commit together, so a crash cannot keep one
 * without the other. Every record of one call has the same event id, so a call that commits several transactions
 * (a bulk delete one row at a time) still leaves one entry in the log: the outbox keeps the first per service and
 * notify's log one per id. Whether a transaction changed anything is PostgreSQL's to say: only a writing
 * transaction has a transaction id.
 */
@EventSubscriber()
export class AdminActionRecorder implements EntitySubscriberInterface {
  async beforeTransactionCommit(event: TransactionCommitEvent): Promise<void> {
    const action = pending.getStore();
    if (!action) return;
    const [{ wrote }] = await rowsOf<{ wrote: boolean }>(event.manager, `SELECT txid_current_if_assigned() IS NOT NULL AS "wrote"`);
    if (!wrote) return;
    await recordAdminAction(event.manager, action);
    action.recorded = true;
  }
}
