import { Injectable } from '@nestjs/common';
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

const PENDING = 'notify:unreadPending';

/**
 * The unread counters, one row per user with a column per tab, moved in the transaction that changes the
 * notifications they count, so that reading the badge is one primary-key lookup and never disagrees with the list.
 *
 * A transaction's moves are summed as it goes and written once per user just before it commits (`UnreadHub`
 * calls `applyPending`), users in id order: a run of a hundred likes for three authors writes three rows, not a
 * hundred, and holds their locks only for the commit, so runs of different partitions moving the same users'
 * counters neither wait long on each other nor deadlock.
 */
@Injectable()
export class UnreadCountRepository {
  async move(manager: EntityManager, moves: UnreadMove[]): Promise<void> {
    const pending = pendingOf(manager);
    for (const move of moves) {
      const userId = Number(move.user_id);
      const row = pending.get(userId) ?? { comments: 0, likes: 0, collections: 0, follows: 0 };
      row[tabOf(move.type)] += move.delta;
      pending.set(userId, row);
    }
    unreadChanged(manager, pending.keys());
  }

  /** Writes the moves the transaction has summed so far. */
  async applyPending(manager: EntityManager): Promise<void> {
    const pending = pendingOf(manager);
    const users = [...pending.keys()].sort((a, b) => a - b);
    for (const userId of users) {
      const delta = pending.get(userId)!;
      pending.delete(userId);
      if (tabs.every((tab) => delta[tab] === 0)) continue;
      await manager.query(
        `INSERT INTO "unread_counts" ("user_id", "comments", "likes", "collections", "follows") VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT ("user_id") DO UPDATE SET "comments" = "unread_counts"."comments" + EXCLUDED."comments",
           "likes" = "unread_counts"."likes" + EXCLUDED."likes", "collections" = "unread_counts"."collections" + EXCLUDED."collections",
           "follows" = "unread_counts"."follows" + EXCLUDED."follows"`,
        [userId, delta.comments, delta.likes, delta.collections, delta.follows],
      );
    }
  }

  /** Forgets the moves of a transaction (or savepoint) that rolled back. */
  forgetPending(manager: EntityManager): void {
    pendingOf(manager).clear();
  }

  async of(manager: EntityManager, userId: number): Promise<UnreadByTab> {
    const [row]: UnreadByTab[] = await manager.query(
      `SELECT "comments", "likes", "collections", "follows" FROM "unread_counts" WHERE "user_id" = $1`,
      [userId],
    );
    return row ?? { comments: 0, likes: 0, collections: 0, follows: 0 };
  }

  async remove(manager: EntityManager, userId: number): Promise<void> {
    await this.applyPending(manager);
    await manager.query(`DELETE FROM "unread_counts" WHERE "user_id" = $1`, [userId]);
  }
}

function pendingOf(manager: EntityManager): Map<number, UnreadByTab> {
  const runner = manager.queryRunner;
  if (!runner) throw new Error('Unread counts change only inside a transaction');
  const data = runner.data as Record<string, Map<number, UnreadByTab> | undefined>;
  return (data[PENDING] ??= new Map());
}
