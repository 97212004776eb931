import { Injectable } from '@nestjs/common';
import { NewestWrites } from '@shiliu/platform';
import type { DataSource, EntityManager } from 'typeorm';

export type ReactionKind = 'like' | 'collect';

interface Reaction {
  kind: ReactionKind;
  postId: number;
  userId: number;
  on: boolean;
  asOf: string;
}

const newer = (table: 'reactions' | 'follows', key: string) =>
  `ON CONFLICT (${key}) DO UPDATE SET "active" = EXCLUDED."active", "as_of" = EXCLUDED."as_of" WHERE "${table}"."as_of" <= EXCLUDED."as_of"`;
const NEWER = newer('reactions', `"user_id", "kind", "post_id"`);

/**
 * Who liked, collected and follows whom, from content's and social's events, so that a card shows the viewer's own
 * state. A like and its undoing travel on one topic keyed by the note, but the note's backfill announcement on
 * another, so each reaction keeps the time of the event it came from and gives way only to a newer one; a follow
 * likewise, for replays.
 */
@Injectable()
export class ViewerStateRepository {
  /** A run's reactions, the newest of each student's for each note kept, written in one statement (in key order). */
  private readonly gathered = new NewestWrites<Reaction>(
    (reaction) => `${reaction.kind} ${reaction.postId} ${reaction.userId}`,
    (reaction) => reaction.asOf,
    async (manager, reactions) => {
      const column = <K extends keyof Reaction>(key: K) => reactions.map((reaction) => reaction[key]);
      await manager.query(
        `INSERT INTO "reactions" ("post_id", "user_id", "kind", "active", "as_of")
         SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::boolean[], $5::timestamptz[]) ORDER BY 2, 3, 1 ${NEWER}`,
        [column('postId'), column('userId'), column('kind'), column('on'), column('asOf')],
      );
    },
  );

  react(manager: EntityManager, kind: ReactionKind, postId: number, userId: number, on: boolean, occurredAt: string): Promise<void> {
    return this.gathered.set(manager, { kind, postId, userId, on, asOf: occurredAt });
  }

  /** A note's likers or collectors as announced: these react, everyone else no longer does, unless a newer event says otherwise. */
  async announce(manager: EntityManager, kind: ReactionKind, postId: number, userIds: number[], occurredAt: string): Promise<void> {
    await this.gathered.flush(manager);
    await manager.query(
      `INSERT INTO "reactions" ("post_id", "user_id", "kind", "active", "as_of") SELECT $1, unnest($2::bigint[]), $3, true, $4 ${NEWER}`,
      [postId, userIds, kind, occurredAt],
    );
    await manager.query(
      `UPDATE "reactions" SET "active" = false, "as_of" = $4
        WHERE "post_id" = $1 AND "kind" = $3 AND "active" AND "as_of" <= $4 AND NOT ("user_id" = ANY($2::bigint[]))`,
      [postId, userIds, kind, occurredAt],
    );
  }

  async follow(manager: EntityManager, followerId: number, followingId: number, on: boolean, occurredAt: string): Promise<void> {
    await manager.query(
      `INSERT INTO "follows" ("follower_id", "following_id", "active", "as_of") VALUES ($1, $2, $3, $4) ${newer('follows', `"follower_id", "following_id"`)}`,
      [followerId, followingId, on, occurredAt],
    );
  }

  async forgetUser(manager: EntityManager, id: number): Promise<void> {
    await manager.query(`DELETE FROM "follows" WHERE "follower_id" = $1 OR "following_id" = $1`, [id]);
    await this.gathered.flush(manager);
    await manager.query(`DELETE FROM "reactions" WHERE "user_id" = $1`, [id]);
  }

  async forgetPost(manager: EntityManager, id: number): Promise<void> {
    await this.gathered.flush(manager);
    await manager.query(`DELETE FROM "reactions" WHERE "post_id" = $1`, [id]);
  }

  /** The viewer's likes and collections among `postIds`, as `${kind}:${postId}`. */
  async reactions(dataSource: DataSource, viewerId: number, postIds: number[]): Promise<Set<string>> {
    if (postIds.length === 0) return new Set();
    const rows: { kind: ReactionKind; post_id: string }[] = await dataSource.query(
      `SELECT "kind", "post_id" FROM "reactions" WHERE "user_id" = $1 AND "post_id" = ANY($2::bigint[]) AND "active"`,
      [viewerId, postIds],
    );
    return new Set(rows.map((row) => `${row.kind}:${row.post_id}`));
  }

  /** Among `userIds`: whom the viewer follows, and who follows the viewer. */
  async follows(dataSource: DataSource, viewerId: number, userIds: number[]): Promise<{ following: Set<string>; followers: Set<string> }> {
    if (userIds.length === 0) return { following: new Set(), followers: new Set() };
    const rows: { follower_id: string; following_id: string }[] = await dataSource.query(
      `SELECT "follower_id", "following_id" FROM "follows"
        WHERE "active" AND (("follower_id" = $1 AND "following_id" = ANY($2::bigint[])) OR ("following_id" = $1 AND "follower_id" = ANY($2::bigint[])))`,
      [viewerId, userIds],
    );
    const following = new Set<string>();
    const followers = new Set<string>();
    for (const row of rows) {
      if (String(row.follower_id) === String(viewerId)) following.add(String(row.following_id));
      else followers.add(String(row.follower_id));
    }
    return { following, followers };
  }
}
