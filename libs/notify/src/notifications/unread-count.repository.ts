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

/**
 * The unread counters, one row per user with a column per tab, moved in the transaction that changes the
 * notifications they count, so that reading the badge is one primary-key lookup and never disagrees with the list.
 */
@Injectable()
export class UnreadCountRepository {
  async move(manager: EntityManager, moves: UnreadMove[]): Promise<void> {
    const byUser = new Map<number, UnreadByTab>();
    for (const move of moves) {
      const userId = Number(move.user_id);
      const row = byUser.get(userId) ?? { comments: 0, likes: 0, collections: 0, follows: 0 };
      row[tabOf(move.type)] += move.delta;
      byUser.set(userId, row);
    }
    // Users in id order, so two transactions moving the same users' counters cannot deadlock.
    for (const userId of [...byUser.keys()].sort((a, b) => a - b)) {
      const delta = byUser.get(userId)!;
      if (tabs.every((tab) => delta[tab] === 0)) continue;
      await manager.query(
        `INSERT INTO "unread_counts" ("user_id", "comments", "likes", "collections", "follows") VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT ("user_id") DO UPDATE SET "comments" = "unread_counts"."comments" + EXCLUDED."comments",
           "likes" = "unread_counts"."likes" + EXCLUDED."likes", "collections" = "unread_counts"."collections" + EXCLUDED."collections",
           "follows" = "unread_counts"."follows" + EXCLUDED."follows"`,
        [userId, delta.comments, delta.likes, delta.collections, delta.follows],
      );
    }
    unreadChanged(manager, byUser.keys());
  }

  async of(manager: EntityManager, userId: number): Promise<UnreadByTab> {
    const [row]: UnreadByTab[] = await manager.query(
      `SELECT "comments", "likes", "collections", "follows" FROM "unread_counts" WHERE "user_id" = $1`,
      [userId],
    );
    return row ?? { comments: 0, likes: 0, collections: 0, follows: 0 };
  }

  async remove(manager: EntityManager, userId: number): Promise<void> {
    await manager.query(`DELETE FROM "unread_counts" WHERE "user_id" = $1`, [userId]);
  }
}
