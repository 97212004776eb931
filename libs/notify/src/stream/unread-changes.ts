import type { EntityManager } from 'typeorm';

const KEY = 'notify:unreadChanged';

/**
 * Remembers, on the transaction, that a user's unread counts change with it. The hub announces them only once the
 * transaction has committed (`UnreadHub.afterTransactionCommit`), so a stream never reads counts that are not yet
 * there, and a change rolled back or retried is announced once, by the try that commits.
 */
export function unreadChanged(manager: EntityManager, userIds: Iterable<number>): void {
  const runner = manager.queryRunner;
  if (!runner) throw new Error('Unread counts change only inside a transaction');
  const data = runner.data as Record<string, Set<number> | undefined>;
  const changed = (data[KEY] ??= new Set<number>());
  for (const id of userIds) changed.add(Number(id));
}

/** The users a committed transaction changed the counts of, taken off it so they are announced once. */
export function takeUnreadChanged(data: Record<string, unknown>): number[] {
  const changed = data[KEY] as Set<number> | undefined;
  delete data[KEY];
  return changed ? [...changed] : [];
}
