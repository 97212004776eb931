import { Injectable } from '@nestjs/common';
import { rowsOf } from '@shiliu/platform';
import type { EntityManager } from 'typeorm';

/** What a like is on: 1 a note, 2 a comment. */
export type LikeTarget = 1 | 2;

/** What a student reacts to and how: a note's like, a comment's like, a note's collection. */
export type ReactionKind = 'note like' | 'comment like' | 'collection';

/** One reaction to add or take back, with the event it makes when it changes something. */
export interface Reaction {
  kind: ReactionKind;
  userId: string;
  targetId: number;
  on: boolean;
  /** Refuse (known: false) a user content has not learned of or has removed; off for clean-ups of a removed user. */
  checkUser: boolean;
  /** The event, written only if the reaction changed something, its payload completed from the target's row. */
  event: { id: string; topic: string; key: string; type: string; envelope: unknown };
}

/** What the call found and did. */
export interface Reacted {
  known: boolean;
  /** The target exists (a note may be a draft: `published` says). */
  found: boolean;
  /** A note that is not a draft, or any comment that exists. */
  published: boolean;
  /** A row was added or removed, the counter moved and the event was written. */
  changed: boolean;
  /** The counter after the statement. */
  count: number;
  /** The event's payload fields taken from the target's row. */
  author_id: string;
  post_id: string;
}

/** Likes (of notes and comments) and collections, one row per user and target, and the counters they move. */
@Injectable()
export class ReactionRepository {
  /**
   * A reaction in one call of the schema's `react` function: the user checked, the target locked, the row added or
   * removed, the counter moved and the event written, all or nothing. Run on its own it commits as it ends, so the
   * target's row stays locked only while PostgreSQL works and flushes, never across a round trip to this process:
   * fifty students liking one note wait for each other's commits, not for each other's network. Outside a
   * transaction it is a student's tap, whose commit does not wait for the disk (migration TapsCommitWithoutFlush).
   */
  async react(manager: EntityManager, reaction: Reaction): Promise<Reacted> {
    const call = manager.queryRunner?.isTransactionActive ? 'react' : 'tap';
    const [row] = await rowsOf<Reacted>(
      manager,
      `SELECT "r_known" AS "known", "r_found" AS "found", "r_published" AS "published", "r_changed" AS "changed", "r_count" AS "count",
         "r_author_id" AS "author_id", "r_post_id" AS "post_id"
       FROM "${call}"($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        reaction.kind,
        reaction.userId,
        reaction.targetId,
        reaction.on,
        reaction.checkUser,
        reaction.event.id,
        reaction.event.topic,
        reaction.event.key,
        reaction.event.type,
        JSON.stringify(reaction.event.envelope),
      ],
    );
    return row;
  }

  /** Demo data: each note's likes and collections are dated between its publication and now. */
  async spreadOverNotesLives(manager: EntityManager): Promise<void> {
    await rowsOf(manager, `UPDATE "likes" l SET "created_at" = p."created_at" + random() * (now() - p."created_at") FROM "posts" p WHERE l."target_type" = 1 AND l."target_id" = p."id"`);
    await rowsOf(manager, `UPDATE "collections" k SET "created_at" = p."created_at" + random() * (now() - p."created_at") FROM "posts" p WHERE k."post_id" = p."id"`);
  }

  /** Everything a user liked, oldest first. */
  async likesOf(manager: EntityManager, userId: string): Promise<{ target_type: LikeTarget; target_id: string }[]> {
    return rowsOf(manager, `SELECT "target_type", "target_id" FROM "likes" WHERE "user_id" = $1 ORDER BY "id"`, [userId]);
  }

  /** Every note a user collected, oldest first. */
  async collectionsOf(manager: EntityManager, userId: string): Promise<number[]> {
    const rows = await rowsOf<{ post_id: string }>(manager, `SELECT "post_id" FROM "collections" WHERE "user_id" = $1 ORDER BY "id"`, [userId]);
    return rows.map((row) => Number(row.post_id));
  }
}
