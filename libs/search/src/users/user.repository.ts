import { Injectable } from '@nestjs/common';
import type { UserProfileSnapshot } from '@shiliu/contracts';
import type { DataSource, EntityManager } from 'typeorm';
import type { UserDocument } from '../engine/search-engine';

export interface UserRow {
  id: string;
  user_id: string;
  nickname: string;
  avatar: string;
  bio: string;
  location: string;
  verified: number;
  registered: boolean;
  deleted: boolean;
  fans_count: number;
  seq: string;
}

export function isFindable(row: UserRow): boolean {
  return row.registered && !row.deleted;
}

export function userDocument(row: UserRow): UserDocument {
  return { id: Number(row.id), user_id: row.user_id, nickname: row.nickname, fans_count: row.fans_count, seq: Number(row.seq) };
}

/**
 * The users as auth's events describe them, with their fan counts from social's: each fact the last state seen,
 * from an event newer than the one it replaces; a deletion is a tombstone. Each change answers the row as it now is,
 * or null when the event was older than what the row holds.
 */
@Injectable()
export class UserRepository {
  upsert(manager: EntityManager, user: UserProfileSnapshot, occurredAt: string): Promise<UserRow | null> {
    return this.change(
      manager,
      user.id,
      `"registered" = true, "as_of" = $2, "user_id" = $3, "nickname" = $4, "avatar" = $5, "bio" = $6, "location" = $7,
       "verified" = CASE WHEN "verified_as_of" <= $2 THEN $8 ELSE "verified" END, "verified_as_of" = greatest("verified_as_of", $2)`,
      `"as_of" <= $2 AND NOT "deleted"`,
      [occurredAt, user.user_id, user.nickname, user.avatar, user.bio, user.location, user.verified],
    );
  }

  verified(manager: EntityManager, id: number, verified: number, occurredAt: string): Promise<UserRow | null> {
    return this.change(manager, id, `"verified" = $2, "verified_as_of" = $3`, `"verified_as_of" <= $3`, [verified, occurredAt]);
  }

  fans(manager: EntityManager, id: number, count: number, occurredAt: string): Promise<UserRow | null> {
    return this.change(manager, id, `"fans_count" = $2, "fans_as_of" = $3`, `"fans_as_of" <= $3`, [count, occurredAt]);
  }

  deleted(manager: EntityManager, id: number): Promise<UserRow | null> {
    return this.change(manager, id, `"deleted" = true`, `NOT "deleted"`, []);
  }

  /** The findable users among `ids`, in no particular order. */
  async byIds(dataSource: DataSource, ids: number[]): Promise<UserRow[]> {
    if (ids.length === 0) return [];
    return dataSource.query(`SELECT * FROM "users" WHERE "id" = ANY($1::bigint[]) AND "registered" AND NOT "deleted"`, [ids]);
  }

  /** Authors of notes, by numeric id, whatever their state: a card shows who wrote it. */
  async authors(dataSource: DataSource, ids: number[]): Promise<Map<string, UserRow>> {
    if (ids.length === 0) return new Map();
    const rows: UserRow[] = await dataSource.query(`SELECT * FROM "users" WHERE "id" = ANY($1::bigint[])`, [ids]);
    return new Map(rows.map((row) => [String(row.id), row]));
  }

  private async change(manager: EntityManager, id: number, set: string, guard: string, params: unknown[]): Promise<UserRow | null> {
    await manager.query(`INSERT INTO "users" ("id") VALUES ($1) ON CONFLICT DO NOTHING`, [id]);
    const [rows]: [UserRow[], number] = await manager.query(`UPDATE "users" SET ${set}, "seq" = nextval('changes') WHERE "id" = $1 AND ${guard} RETURNING *`, [id, ...params]);
    return rows[0] ?? null;
  }
}
