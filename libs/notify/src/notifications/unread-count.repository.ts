import { Injectable } from '@nestjs/common';
import { CounterTable } from '@shiliu/platform';
import type { EntityManager } from 'typeorm';
import { unreadChanged } from '../stream/unread-changes';
import { type Tab, tabOf, tabs } from './notification-type';

export type UnreadByTab = Record<Tab, number>;

/** A change of unread notifications: one user's notification of one type became (un)read, appeared or went. */
export interface UnreadMove {
  user_id: number | string;
  type: number;
  delta: number;
}

const unreadCounts = new CounterTable<Tab>('unread_counts', 'user_id', tabs);

/**
 * The unread counters, one row per user with a column per tab, moved in the transaction that changes the
 * notifications they count, so that reading the badge is one primary-key lookup and never disagrees with the list.
 * The moves are summed over the transaction and written at its commit, users in id order (`CounterTable`): runs of
 * different partitions moving the same users' counters neither wait long on each other nor deadlock.
 */
@Injectable()
export class UnreadCountRepository {
  async move(manager: EntityManager, moves: UnreadMove[]): Promise<void> {
    for (const move of moves) unreadCounts.move(manager, move.user_id, { [tabOf(move.type)]: move.delta });
    unreadChanged(manager, moves.map((move) => Number(move.user_id)));
  }

  async of(manager: EntityManager, userId: number): Promise<UnreadByTab> {
    const [row]: UnreadByTab[] = await manager.query(
      `SELECT "comments", "likes", "collections", "follows" FROM "unread_counts" WHERE "user_id" = $1`,
      [userId],
    );
    return row ?? { comments: 0, likes: 0, collections: 0, follows: 0 };
  }

  async remove(manager: EntityManager, userId: number): Promise<void> {
    await unreadCounts.apply(manager);
    await manager.query(`DELETE FROM "unread_counts" WHERE "user_id" = $1`, [userId]);
  }
}
