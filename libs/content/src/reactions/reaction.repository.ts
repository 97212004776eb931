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

/** What the statement found and did. */
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

/** How each kind's statement reads its target, its counter and its row. */
const KINDS: Record<ReactionKind, { table: string; counter: string; postId: string; published: string; add: string; remove: string; fromRow: string }> = {
  'note like': {
    table: 'posts',
    counter: 'like_count',
    postId: '"id"',
    published: 'NOT "is_draft"',
    add: `INSERT INTO "likes" ("user_id", "target_type", "target_id") SELECT $1, 1, "id" FROM "target" WHERE "published" ON CONFLICT DO NOTHING`,
    remove: `DELETE FROM "likes" WHERE "user_id" = $1 AND "target_type" = 1 AND "target_id" IN (SELECT "id" FROM "target")`,
    fromRow: `'post_author_id', "target"."author_id"`,
  },
  'comment like': {
    table: 'comments',
    counter: 'like_count',
    postId: '"post_id"',
    published: 'true',
    add: `INSERT INTO "likes" ("user_id", "target_type", "target_id") SELECT $1, 2, "id" FROM "target" ON CONFLICT DO NOTHING`,
    remove: `DELETE FROM "likes" WHERE "user_id" = $1 AND "target_type" = 2 AND "target_id" IN (SELECT "id" FROM "target")`,
    fromRow: `'comment_author_id', "target"."author_id", 'post_id', "target"."post_id"`,
  },
  collection: {
    table: 'posts',
    counter: 'collect_count',
    postId: '"id"',
    published: 'NOT "is_draft"',
    add: `INSERT INTO "collections" ("user_id", "post_id") SELECT $1, "id" FROM "target" WHERE "published" ON CONFLICT DO NOTHING`,
    remove: `DELETE FROM "collections" WHERE "user_id" = $1 AND "post_id" IN (SELECT "id" FROM "target")`,
    fromRow: `'post_author_id', "target"."author_id"`,
  },
};

/** Likes (of notes and comments) and collections, one row per user and target, and the counters they move. */
@Injectable()
export class ReactionRepository {
  /**
   * A reaction in one statement: the user checked, the target locked, the row added or removed, the counter moved
   * and the event written, all or nothing. Run on its own it commits as it ends, so the target's row stays locked
   * only while PostgreSQL works and flushes, never across a round trip to this process: fifty students liking one
   * note wait for each other's commits, not for each other's network.
   */
  async react(manager: EntityManager, reaction: Reaction): Promise<Reacted> {
    const kind = KINDS[reaction.kind];
    const [row] = await rowsOf<Reacted>(
      manager,
      `WITH "known" AS (${reaction.checkUser ? `SELECT 1 FROM "authors" WHERE "id" = $1 FOR KEY SHARE` : `SELECT 1`}),
       "target" AS (
         SELECT "id", "author_id", ${kind.postId} AS "post_id", "${kind.counter}" AS "count", ${kind.published} AS "published"
         FROM "${kind.table}" WHERE "id" = $2 AND EXISTS (SELECT FROM "known") FOR NO KEY UPDATE),
       "changed" AS (${reaction.on ? kind.add : kind.remove} RETURNING 1),
       "moved" AS (
         UPDATE "${kind.table}" t SET "${kind.counter}" = t."${kind.counter}" + ${reaction.on ? 1 : -1} FROM "target"
         WHERE t."id" = "target"."id" AND EXISTS (SELECT FROM "changed") RETURNING t."${kind.counter}" AS "count"),
       "sent" AS (
         INSERT INTO "outbox" ("id", "topic", "key", "type", "envelope")
         SELECT $3, $4, $5, $6, jsonb_set($7::jsonb, '{payload}', ($7::jsonb -> 'payload') || jsonb_build_object('count', "moved"."count", ${kind.fromRow}))
         FROM "moved", "target")
       SELECT EXISTS (SELECT FROM "known") AS "known", "target"."id" IS NOT NULL AS "found", COALESCE("target"."published", false) AS "published",
         EXISTS (SELECT FROM "changed") AS "changed", COALESCE((SELECT "count" FROM "moved"), "target"."count", 0) AS "count",
         "target"."author_id", "target"."post_id"
       FROM (SELECT) AS "one" LEFT JOIN "target" ON true`,
      [reaction.userId, reaction.targetId, reaction.event.id, reaction.event.topic, reaction.event.key, reaction.event.type, JSON.stringify(reaction.event.envelope)],
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
