import { Injectable } from '@nestjs/common';
import type { UserProfileSnapshot } from '@shiliu/contracts';
import type { EntityManager } from 'typeorm';

/**
 * The sender snapshots (auth's user.* events) and their follow counters (social's follow events), joined when a
 * page is read. Each part remembers the `occurredAt` it came from, so an older event never overwrites newer state;
 * a follow event may create the row before the user's registration reaches us.
 */
@Injectable()
export class SenderRepository {
  async upsert(manager: EntityManager, user: UserProfileSnapshot, occurredAt: string): Promise<void> {
    await manager.query(
      `INSERT INTO "users" ("id", "user_id", "nickname", "avatar", "verified", "as_of") VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT ("id") DO UPDATE SET "user_id" = EXCLUDED."user_id", "nickname" = EXCLUDED."nickname", "avatar" = EXCLUDED."avatar",
         "verified" = EXCLUDED."verified", "as_of" = EXCLUDED."as_of"
       WHERE "users"."as_of" <= EXCLUDED."as_of"`,
      [user.id, user.user_id, user.nickname, user.avatar, user.verified, occurredAt],
    );
  }

  async setVerified(manager: EntityManager, id: number, verified: number, occurredAt: string): Promise<void> {
    await manager.query(`UPDATE "users" SET "verified" = $2, "as_of" = $3 WHERE "id" = $1 AND "as_of" <= $3`, [id, verified, occurredAt]);
  }

  async followCount(manager: EntityManager, id: number, count: number, occurredAt: string): Promise<void> {
    await manager.query(
      `INSERT INTO "users" ("id", "follow_count", "follows_as_of") VALUES ($1, $2, $3)
       ON CONFLICT ("id") DO UPDATE SET "follow_count" = EXCLUDED."follow_count", "follows_as_of" = EXCLUDED."follows_as_of"
       WHERE "users"."follows_as_of" <= EXCLUDED."follows_as_of"`,
      [id, count, occurredAt],
    );
  }

  async fansCount(manager: EntityManager, id: number, count: number, occurredAt: string): Promise<void> {
    await manager.query(
      `INSERT INTO "users" ("id", "fans_count", "fans_as_of") VALUES ($1, $2, $3)
       ON CONFLICT ("id") DO UPDATE SET "fans_count" = EXCLUDED."fans_count", "fans_as_of" = EXCLUDED."fans_as_of"
       WHERE "users"."fans_as_of" <= EXCLUDED."fans_as_of"`,
      [id, count, occurredAt],
    );
  }

  /** A tombstone, dated beyond any event, so that nothing late brings the account back or notifies from or to it. */
  async remove(manager: EntityManager, id: number): Promise<void> {
    await manager.query(
      `INSERT INTO "users" ("id", "deleted", "as_of", "follows_as_of", "fans_as_of") VALUES ($1, true, 'infinity', 'infinity', 'infinity')
       ON CONFLICT ("id") DO UPDATE SET "deleted" = true, "user_id" = NULL, "nickname" = NULL, "avatar" = '', "as_of" = 'infinity',
         "follows_as_of" = 'infinity', "fans_as_of" = 'infinity'`,
      [id],
    );
  }
}
