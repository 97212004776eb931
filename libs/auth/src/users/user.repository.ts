import { Injectable } from '@nestjs/common';
import { rowsOf } from '@shiliu/platform';
import type { EntityManager } from 'typeorm';

/** A student's account and profile. `id` is internal (bigint, as text); `user_id` is the public product ID (小石榴号). */
export interface UserRow {
  id: string;
  user_id: string;
  nickname: string;
  avatar: string;
  bio: string;
  location: string;
  verified: 0 | 1 | 2;
  gender: string | null;
  zodiac_sign: string | null;
  mbti: string | null;
  education: string | null;
  major: string | null;
  interests: string[];
  created_at: Date;
}

/** Profile fields a student changes themselves. */
export type ProfileChanges = Partial<Pick<UserRow, 'nickname' | 'bio' | 'avatar' | 'gender' | 'zodiac_sign' | 'mbti' | 'education' | 'major' | 'interests'>>;

const PROFILE_FIELDS: readonly (keyof ProfileChanges)[] = ['nickname', 'bio', 'avatar', 'gender', 'zodiac_sign', 'mbti', 'education', 'major', 'interests'];

// Never the password hash: only `passwordHashOf` reads it.
const COLUMNS = `"id", "user_id", "nickname", "avatar", "bio", "location", "verified", "gender", "zodiac_sign", "mbti", "education", "major", "interests", "created_at"`;

/** Accounts and profiles, auth's own truth. Product IDs match regardless of case, as their unique index does. */
@Injectable()
export class UserRepository {
  /** Answers null when the product ID is taken. */
  async insert(manager: EntityManager, user: Pick<UserRow, 'user_id' | 'nickname' | 'avatar' | 'bio' | 'location'> & { passwordHash: string }): Promise<UserRow | null> {
    const [row] = await rowsOf<UserRow>(
      manager,
      `INSERT INTO "users" ("user_id", "nickname", "password_hash", "avatar", "bio", "location") VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT DO NOTHING RETURNING ${COLUMNS}`,
      [user.user_id, user.nickname, user.passwordHash, user.avatar, user.bio, user.location],
    );
    return row ?? null;
  }

  async findById(manager: EntityManager, id: string): Promise<UserRow | null> {
    const [row] = await rowsOf<UserRow>(manager, `SELECT ${COLUMNS} FROM "users" WHERE "id" = $1`, [id]);
    return row ?? null;
  }

  async findByUserId(manager: EntityManager, userId: string): Promise<UserRow | null> {
    const [row] = await rowsOf<UserRow>(manager, `SELECT ${COLUMNS} FROM "users" WHERE lower("user_id") = lower($1)`, [userId]);
    return row ?? null;
  }

  async userIdTaken(manager: EntityManager, userId: string): Promise<boolean> {
    const rows = await rowsOf(manager, `SELECT 1 FROM "users" WHERE lower("user_id") = lower($1)`, [userId]);
    return rows.length > 0;
  }

  /** False when an administrator has switched the account off. */
  async isActive(manager: EntityManager, id: string): Promise<boolean> {
    const [row] = await rowsOf<{ is_active: boolean }>(manager, `SELECT "is_active" FROM "users" WHERE "id" = $1`, [id]);
    return row?.is_active ?? false;
  }

  async passwordHashOf(manager: EntityManager, id: string): Promise<string | null> {
    const [row] = await rowsOf<{ password_hash: string }>(manager, `SELECT "password_hash" FROM "users" WHERE "id" = $1`, [id]);
    return row?.password_hash ?? null;
  }

  /** Holds the user's row until the transaction ends, so that two of their requests cannot interleave. */
  async lock(manager: EntityManager, id: string): Promise<void> {
    await rowsOf(manager, `SELECT 1 FROM "users" WHERE "id" = $1 FOR UPDATE`, [id]);
  }

  /** Answers the row after the change (null when the user is gone). */
  async updateProfile(manager: EntityManager, id: string, changes: ProfileChanges): Promise<UserRow | null> {
    const fields = PROFILE_FIELDS.filter((field) => changes[field] !== undefined);
    if (fields.length === 0) return this.findById(manager, id);
    const values = fields.map((field) => (field === 'interests' ? JSON.stringify(changes.interests) : changes[field]));
    const [row] = await rowsOf<UserRow>(
      manager,
      `UPDATE "users" SET ${fields.map((field, i) => `"${field}" = $${i + 2}`).join(', ')}, "updated_at" = now() WHERE "id" = $1 RETURNING ${COLUMNS}`,
      [id, ...values],
    );
    return row ?? null;
  }

  async setPasswordHash(manager: EntityManager, id: string, passwordHash: string): Promise<void> {
    await rowsOf(manager, `UPDATE "users" SET "password_hash" = $2, "updated_at" = now() WHERE "id" = $1`, [id, passwordHash]);
  }

  /** Answers the row after the change (null when the user is gone). */
  async setVerified(manager: EntityManager, id: string, verified: UserRow['verified']): Promise<UserRow | null> {
    const [row] = await rowsOf<UserRow>(manager, `UPDATE "users" SET "verified" = $2, "updated_at" = now() WHERE "id" = $1 RETURNING ${COLUMNS}`, [id, verified]);
    return row ?? null;
  }

  /** Verification applications go with the account (ON DELETE CASCADE). */
  async delete(manager: EntityManager, id: string): Promise<void> {
    await rowsOf(manager, `DELETE FROM "users" WHERE "id" = $1`, [id]);
  }

  /** Nickname or product ID containing `keyword`, exact matches first. */
  async search(manager: EntityManager, keyword: string, limit: number): Promise<UserRow[]> {
    const pattern = `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return rowsOf<UserRow>(
      manager,
      `SELECT ${COLUMNS} FROM "users" WHERE "nickname" ILIKE $1 OR "user_id" ILIKE $1
       ORDER BY (lower("user_id") = lower($2) OR "nickname" = $2) DESC, "id" ASC LIMIT $3`,
      [pattern, keyword, limit],
    );
  }

  /**
   * The next users after `after` by id, read FOR SHARE: a change committing meanwhile waits, so it is either in what
   * the caller does with these rows or comes after it.
   */
  async batchForShare(manager: EntityManager, after: number, limit: number): Promise<UserRow[]> {
    return rowsOf<UserRow>(manager, `SELECT ${COLUMNS} FROM "users" WHERE "id" > $1 ORDER BY "id" LIMIT $2 FOR SHARE`, [after, limit]);
  }
}
