import { Injectable, UnauthorizedException } from '@nestjs/common';
import type { UserProfileSnapshot } from '@shiliu/contracts';
import { messageForStatus } from '@shiliu/platform';
import { DataSource, type EntityManager } from 'typeorm';

/** How long a write waits for its writer's user.registered event to arrive. */
const AUTHOR_EVENT_WAIT_MS = 3000;

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

  async remove(manager: EntityManager, id: number): Promise<void> {
    await manager.query(`DELETE FROM "authors" WHERE "id" = $1`, [id]);
  }

  /**
   * Every write checks that its writer is a user we learned of from auth's events, and holds the row until it
   * commits so that a concurrent account removal waits for it: a deleted account (whose tokens are revoked too)
   * writes nothing, and content never invents an author.
   */
  async requireKnown(manager: EntityManager, id: string): Promise<void> {
    const rows: unknown[] = await manager.query(`SELECT 1 FROM "authors" WHERE "id" = $1 FOR KEY SHARE`, [id]);
    if (rows.length === 0) throw new UnauthorizedException(messageForStatus(401));
  }

  /**
   * A student who writes in the first moments after registering may be ahead of the user.registered event: the
   * write waits a little for it (outside any transaction) rather than fail, before `requireKnown` decides.
   */
  async awaitKnown(id: string): Promise<void> {
    const deadline = Date.now() + AUTHOR_EVENT_WAIT_MS;
    while (Date.now() < deadline) {
      const rows: unknown[] = await this.dataSource.query(`SELECT 1 FROM "authors" WHERE "id" = $1`, [id]);
      if (rows.length > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
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
