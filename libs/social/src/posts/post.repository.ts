import { Injectable } from '@nestjs/common';
import type { PostSnapshot } from '@shiliu/contracts';
import { newestCounts, type NoteCountAsOf, rowsOf } from '@shiliu/platform';
import type { EntityManager } from 'typeorm';
import { type Counters, UserStatsRepository } from '../stats/user-stats.repository';

interface PostRow {
  published: boolean;
  deleted: boolean;
  like_count: number;
  collect_count: number;
}

/** What a note adds to its author's counters: itself and what it received, while it is published and not deleted. */
function contribution(row: PostRow | undefined): Pick<Counters, 'post_count' | 'like_count' | 'collect_count'> {
  const counts = row !== undefined && row.published && !row.deleted;
  return { post_count: counts ? 1 : 0, like_count: counts ? row.like_count : 0, collect_count: counts ? row.collect_count : 0 };
}

/**
 * The notes as this service knows them from content's events: author, cover, whether published or deleted, and
 * their like and collect counts. Events about one note arrive on two topics (shiliu.post and shiliu.reaction) in no
 * order relative to each other, so every fact is kept as the last state seen rather than added up: a deletion is a
 * tombstone that a late publication cannot undo, a count is the note's own count after the change, taken only from
 * an event newer than the one it replaces. Each change moves the author's counters by the difference it makes.
 */
@Injectable()
export class PostRepository {
  private readonly likeCounts = newestCounts<NoteCountAsOf>((manager, counts) => this.setCounts(manager, 'like_count', 'likes_as_of', counts));
  private readonly collectCounts = newestCounts<NoteCountAsOf>((manager, counts) => this.setCounts(manager, 'collect_count', 'collects_as_of', counts));

  constructor(private readonly stats: UserStatsRepository) {}

  published(manager: EntityManager, post: PostSnapshot, occurredAt: string): Promise<void> {
    return this.change(manager, post.id, post.author_id,
      `"published" = true, "cover" = $2, "created_at" = $3, "as_of" = $4`, `"as_of" <= $4`,
      [post.cover_url ?? post.images[0] ?? null, post.created_at, occurredAt]);
  }

  deleted(manager: EntityManager, id: number, authorId: number): Promise<void> {
    return this.change(manager, id, authorId, `"deleted" = true`, 'true', []);
  }

  likes(manager: EntityManager, id: number, authorId: number, count: number, occurredAt: string): Promise<void> {
    return this.likeCounts.set(manager, { id, authorId, count, asOf: occurredAt });
  }

  collections(manager: EntityManager, id: number, authorId: number, count: number, occurredAt: string): Promise<void> {
    return this.collectCounts.set(manager, { id, authorId, count, asOf: occurredAt });
  }

  /**
   * Notes' counts, each where it is newer than the note's, in three statements however many notes: a run's likes of
   * one note set its count once (`NewestWrites`). The authors' counters move by the difference each note's makes.
   */
  private async setCounts(manager: EntityManager, column: 'like_count' | 'collect_count', asOfColumn: 'likes_as_of' | 'collects_as_of', counts: NoteCountAsOf[]): Promise<void> {
    const ids = counts.map((count) => count.id);
    await manager.query(`INSERT INTO "posts" ("id", "author_id") SELECT * FROM unnest($1::bigint[], $2::bigint[]) ORDER BY 1 ON CONFLICT DO NOTHING`, [ids, counts.map((count) => count.authorId)]);
    const before = await rowsOf<PostRow & { id: string }>(
      manager,
      `SELECT "id", "published", "deleted", "like_count", "collect_count" FROM "posts" WHERE "id" = ANY($1::bigint[]) ORDER BY "id" FOR UPDATE`,
      [ids],
    );
    const after = await rowsOf<PostRow & { id: string; author_id: string }>(
      manager,
      `UPDATE "posts" "p" SET "${column}" = "m"."count", "${asOfColumn}" = "m"."as_of"
       FROM unnest($1::bigint[], $2::int[], $3::timestamptz[]) AS "m"("id", "count", "as_of")
       WHERE "p"."id" = "m"."id" AND "p"."${asOfColumn}" <= "m"."as_of"
       RETURNING "p"."id", "p"."author_id", "p"."published", "p"."deleted", "p"."like_count", "p"."collect_count"`,
      [ids, counts.map((count) => count.count), counts.map((count) => count.asOf)],
    );
    const old = new Map(before.map((row) => [row.id, row]));
    for (const row of after) this.moveAuthor(manager, Number(row.author_id), old.get(row.id), row);
  }

  /** Covers of a user's newest published notes, for the hover card. */
  async recentCovers(manager: EntityManager, authorId: number, limit: number): Promise<string[]> {
    const rows: { cover: string }[] = await manager.query(
      `SELECT "cover" FROM "posts" WHERE "author_id" = $1 AND "published" AND NOT "deleted" AND "cover" IS NOT NULL ORDER BY "created_at" DESC, "id" DESC LIMIT $2`,
      [authorId, limit],
    );
    return rows.map((row) => row.cover);
  }

  /** Applies `set` where `guard` holds (both over $1 = the note's id, then `params`) and moves the author's counters. */
  private async change(manager: EntityManager, id: number, authorId: number, set: string, guard: string, params: unknown[]): Promise<void> {
    await manager.query(`INSERT INTO "posts" ("id", "author_id") VALUES ($1, $2) ON CONFLICT DO NOTHING`, [id, authorId]);
    const [before]: PostRow[] = await manager.query(
      `SELECT "published", "deleted", "like_count", "collect_count" FROM "posts" WHERE "id" = $1 FOR UPDATE`,
      [id],
    );
    const [after] = await rowsOf<PostRow>(
      manager,
      `UPDATE "posts" SET ${set} WHERE "id" = $1 AND ${guard} RETURNING "published", "deleted", "like_count", "collect_count"`,
      [id, ...params],
    );
    if (after) this.moveAuthor(manager, authorId, before, after);
  }

  private moveAuthor(manager: EntityManager, authorId: number, before: PostRow | undefined, after: PostRow): void {
    const old = contribution(before);
    const now = contribution(after);
    this.stats.move(manager, authorId, {
      post_count: now.post_count - old.post_count,
      like_count: now.like_count - old.like_count,
      collect_count: now.collect_count - old.collect_count,
    });
  }
}
