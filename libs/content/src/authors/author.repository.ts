import { Injectable, UnauthorizedException } from '@nestjs/common';
import type { UserProfileSnapshot } from '@shiliu/contracts';
import { messageForStatus } from '@shiliu/platform';
import { DataSource, type EntityManager } from 'typeorm';

/** Who writes: the user's numeric id, and the product ID their token names (null for a write with no token behind it). */
export interface Writer {
  id: string;
  userId: string | null;
}

export interface AuthorRow {
  id: string;
  user_id: string;
  nickname: string;
  avatar: string;
  location: string;
  verified: number;
}

/** The author snapshot: what content shows of a user, fed by the user.* events so no request asks auth. */
@Injectable()
export class AuthorRepository {
  constructor(private readonly dataSource: DataSource) {}

  async upsert(manager: EntityManager, user: UserProfileSnapshot): Promise<void> {
    // A product ID freed by a deleted account may be taken by a new one before the deletion reaches us
    // (the two events are keyed by different users); the stale row gives way.
    await manager.query(`UPDATE "authors" SET "user_id" = "user_id" || '#' || "id" WHERE "user_id" = $1 AND "id" <> $2`, [user.user_id, user.id]);
    await manager.query(
      `INSERT INTO "authors" ("id", "user_id", "nickname", "avatar", "bio", "location", "verified", "updated_at")
       VALUES ($1, $2, $3, $4, $5, $6, $7, now())
       ON CONFLICT ("id") DO UPDATE SET "user_id" = EXCLUDED."user_id", "nickname" = EXCLUDED."nickname", "avatar" = EXCLUDED."avatar",
         "bio" = EXCLUDED."bio", "location" = EXCLUDED."location", "verified" = EXCLUDED."verified", "updated_at" = now()`,
      [user.id, user.user_id, user.nickname, user.avatar, user.bio, user.location, user.verified],
    );
  }

  async setVerified(manager: EntityManager, id: number, verified: number): Promise<void> {
    await manager.query(`UPDATE "authors" SET "verified" = $2, "updated_at" = now() WHERE "id" = $1`, [id, verified]);
  }

  /** Remembers the removal, so that a token of the account still in circulation does not bring the author back. */
  async remove(manager: EntityManager, id: number): Promise<void> {
    await manager.query(`INSERT INTO "removed_authors" ("id") VALUES ($1) ON CONFLICT DO NOTHING`, [id]);
    await manager.query(`DELETE FROM "authors" WHERE "id" = $1`, [id]);
  }

  /**
   * Every write checks that its writer is an author we know, and holds the row until it commits so that a concurrent
   * account removal waits for it: a deleted account (whose tokens are revoked too) writes nothing. A writer whose
   * user.registered event is still on its way is learned from the token (`learn`) rather than refused.
   */
  async requireKnown(manager: EntityManager, writer: Writer): Promise<void> {
    if (await this.holdKnown(manager, writer.id)) return;
    if (writer.userId !== null) {
      await this.learn(manager, { id: writer.id, userId: writer.userId });
      if (await this.holdKnown(manager, writer.id)) return;
    }
    throw new UnauthorizedException(messageForStatus(401));
  }

  /**
   * A valid token proves its user exists: an author not yet known is taken from its claims, the product ID standing
   * for the nickname until the user's event brings the profile (and overwrites this row). A removed account stays
   * removed. A product ID still held by a deleted account whose deletion has not reached us gives way, as in `upsert`.
   */
  async learn(manager: EntityManager, writer: { id: string; userId: string }): Promise<void> {
    const removed: unknown[] = await manager.query(`SELECT 1 FROM "removed_authors" WHERE "id" = $1`, [writer.id]);
    if (removed.length > 0) return;
    await manager.query(`UPDATE "authors" SET "user_id" = "user_id" || '#' || "id" WHERE "user_id" = $2 AND "id" <> $1`, [writer.id, writer.userId]);
    await manager.query(`INSERT INTO "authors" ("id", "user_id", "nickname") VALUES ($1, $2, $2) ON CONFLICT DO NOTHING`, [writer.id, writer.userId]);
  }

  private async holdKnown(manager: EntityManager, id: string): Promise<boolean> {
    const rows: unknown[] = await manager.query(`SELECT 1 FROM "authors" WHERE "id" = $1 FOR KEY SHARE`, [id]);
    return rows.length > 0;
  }

  async findByUserId(userId: string): Promise<AuthorRow | null> {
    const rows: AuthorRow[] = await this.dataSource.query(
      `SELECT "id", "user_id", "nickname", "avatar", "location", "verified" FROM "authors" WHERE "user_id" = $1`,
      [userId],
    );
    return rows[0] ?? null;
  }

  async findByUserIds(manager: EntityManager, userIds: string[]): Promise<AuthorRow[]> {
    if (userIds.length === 0) return [];
    return manager.query(`SELECT "id", "user_id", "nickname", "avatar", "location", "verified" FROM "authors" WHERE "user_id" = ANY($1::text[])`, [userIds]);
  }

  async all(): Promise<AuthorRow[]> {
    return this.dataSource.query(`SELECT "id", "user_id", "nickname", "avatar", "location", "verified" FROM "authors" ORDER BY "id"`);
  }
}
