import { Injectable } from '@nestjs/common';
import type { UserProfileSnapshot } from '@shiliu/contracts';
import type { Principal } from '@shiliu/platform';
import type { EntityManager } from 'typeorm';

export interface UserCardRow {
  id: number;
  user_id: string;
  nickname: string;
  avatar: string;
  bio: string;
  location: string;
  verified: number;
}

const COLUMNS = `"id"::int AS "id", "user_id", "nickname", "avatar", "bio", "location", "verified"`;

/** The user snapshot (from auth's user.* events) that follow lists and hover cards show, so no request asks auth. */
@Injectable()
export class UserCardRepository {
  /** Upserts a user as of `occurredAt`; an older event (a replay, a late announcement) never overwrites newer state. */
  async upsert(manager: EntityManager, user: UserProfileSnapshot, occurredAt: string): Promise<void> {
    // A product ID freed by a deleted account may be taken by a new one before the deletion reaches us
    // (the two events are keyed by different users); the stale row gives way.
    await manager.query(`UPDATE "user_cards" SET "user_id" = "user_id" || '#' || "id" WHERE "user_id" = $1 AND "id" <> $2`, [user.user_id, user.id]);
    await manager.query(
      `INSERT INTO "user_cards" ("id", "user_id", "nickname", "avatar", "bio", "location", "verified", "as_of")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT ("id") DO UPDATE SET "user_id" = EXCLUDED."user_id", "nickname" = EXCLUDED."nickname", "avatar" = EXCLUDED."avatar",
         "bio" = EXCLUDED."bio", "location" = EXCLUDED."location", "verified" = EXCLUDED."verified", "as_of" = EXCLUDED."as_of"
       WHERE "user_cards"."as_of" <= EXCLUDED."as_of"`,
      [user.id, user.user_id, user.nickname, user.avatar, user.bio, user.location, user.verified, occurredAt],
    );
  }

  async setVerified(manager: EntityManager, id: number, verified: number, occurredAt: string): Promise<void> {
    await manager.query(`UPDATE "user_cards" SET "verified" = $2, "as_of" = $3 WHERE "id" = $1 AND "as_of" <= $3`, [id, verified, occurredAt]);
  }

  async remove(manager: EntityManager, id: number): Promise<void> {
    await manager.query(`DELETE FROM "user_cards" WHERE "id" = $1`, [id]);
  }

  /**
   * A token can reach us before the user.registered event it belongs to: the viewer then gets a placeholder
   * (nickname = product ID, older than any event) that the event fills in when it arrives.
   */
  async ensure(manager: EntityManager, principal: Principal): Promise<void> {
    await manager.query(`INSERT INTO "user_cards" ("id", "user_id", "nickname", "as_of") VALUES ($1, $2, $2, '-infinity') ON CONFLICT DO NOTHING`, [
      principal.id,
      principal.userId,
    ]);
  }

  async byUserId(manager: EntityManager, userId: string): Promise<UserCardRow | null> {
    const rows: UserCardRow[] = await manager.query(`SELECT ${COLUMNS} FROM "user_cards" WHERE "user_id" = $1`, [userId]);
    return rows[0] ?? null;
  }

  async byUserIds(manager: EntityManager, userIds: string[]): Promise<UserCardRow[]> {
    return manager.query(`SELECT ${COLUMNS} FROM "user_cards" WHERE "user_id" = ANY($1::text[])`, [userIds]);
  }
}
