import { Injectable } from '@nestjs/common';
import { rowsOf } from '@shiliu/platform';
import { DataSource, type EntityManager } from 'typeorm';

export type UploadKind = 'image' | 'thumbnail' | 'video' | 'cover';

export interface UploadRecord {
  key: string;
  ownerId: number;
  kind: UploadKind;
  sourceKey: string | null;
  size: number;
}

/** The `uploads` table: who put which object, and whether a note, comment or avatar uses it. */
@Injectable()
export class UploadRepository {
  constructor(private readonly dataSource: DataSource) {}

  async record(records: UploadRecord[], manager: EntityManager = this.dataSource.manager): Promise<void> {
    for (const record of records) {
      await manager.query(
        `INSERT INTO "uploads" ("key", "owner_id", "kind", "source_key", "size") VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT ("key", "owner_id") DO UPDATE SET "created_at" = now()`,
        [record.key, record.ownerId, record.kind, record.sourceKey, record.size],
      );
    }
  }

  /**
   * Makes `keys` exactly what `holder` uses, and marks them (and what was made from them) as attached, so the orphan
   * sweep keeps them. Answers the keys the holder used before and no longer does.
   */
  async use(manager: EntityManager, holder: string, keys: string[]): Promise<string[]> {
    const dropped = await rowsOf<{ key: string }>(manager, `DELETE FROM "upload_uses" WHERE "holder" = $1 AND NOT ("key" = ANY($2)) RETURNING "key"`, [holder, keys]);
    if (keys.length > 0) {
      await manager.query(`INSERT INTO "upload_uses" ("holder", "key") SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING`, [holder, keys]);
      await manager.query(`UPDATE "uploads" SET "attached_at" = now() WHERE "attached_at" IS NULL AND ("key" = ANY($1) OR "source_key" = ANY($1))`, [keys]);
    }
    return dropped.map((row) => row.key);
  }

  /** Ends the uses of a holder and of those under it (`post:1` and `post:1/comment:2`); answers the keys they used. */
  async letGo(manager: EntityManager, holder: string): Promise<string[]> {
    const rows = await rowsOf<{ key: string }>(manager, `DELETE FROM "upload_uses" WHERE "holder" = $1 OR "holder" LIKE $1 || '/%' RETURNING "key"`, [holder]);
    return rows.map((row) => row.key);
  }

  /**
   * Drops the rows of the objects (and what was made from them) that nothing uses any more, and answers the keys no
   * one holds now, which the caller removes from storage. A row of the same bytes that someone else uploaded after
   * their last use, less than a day ago, stays for the sweep: its uploader may be about to use it.
   */
  async release(manager: EntityManager, ownerId: number, keys: string[], graceFrom: Date): Promise<string[]> {
    if (keys.length === 0) return [];
    const rows = await rowsOf<{ key: string }>(
      manager,
      `DELETE FROM "uploads" u
       WHERE (u."key" = ANY($2) OR u."source_key" = ANY($2))
         AND (u."owner_id" = $1 OR u."attached_at" IS NOT NULL OR u."created_at" < $3)
         AND NOT EXISTS (SELECT 1 FROM "upload_uses" w WHERE w."key" = u."key" OR w."key" = u."source_key")
       RETURNING u."key"`,
      [ownerId, keys, graceFrom],
    );
    return this.unheld(manager, rows.map((row) => row.key));
  }

  /** Drops every row of an owner (a deleted account) and answers the keys no one holds any more. */
  async releaseOwner(manager: EntityManager, ownerId: number): Promise<string[]> {
    const rows = await rowsOf<{ key: string }>(manager, `DELETE FROM "uploads" WHERE "owner_id" = $1 RETURNING "key"`, [ownerId]);
    return this.unheld(manager, rows.map((row) => row.key));
  }

  /** Drops the rows of uploads never attached since `before` and answers the keys no one holds any more. */
  async releaseUnattached(manager: EntityManager, before: Date): Promise<string[]> {
    const rows = await rowsOf<{ key: string }>(
      manager,
      `DELETE FROM "uploads" u WHERE u."attached_at" IS NULL AND u."created_at" < $1
         AND NOT EXISTS (SELECT 1 FROM "uploads" s WHERE s."key" = u."source_key" AND s."attached_at" IS NOT NULL)
       RETURNING u."key"`,
      [before],
    );
    return this.unheld(manager, rows.map((row) => row.key));
  }

  /** The keys without a row or a use left: an object something still shows stays even when no upload row names it. */
  private async unheld(manager: EntityManager, keys: string[]): Promise<string[]> {
    if (keys.length === 0) return [];
    const held = await rowsOf<{ key: string }>(
      manager,
      `SELECT "key" FROM "uploads" WHERE "key" = ANY($1) UNION SELECT "key" FROM "upload_uses" WHERE "key" = ANY($1)`,
      [keys],
    );
    const heldKeys = new Set(held.map((row) => row.key));
    return [...new Set(keys)].filter((key) => !heldKeys.has(key));
  }
}
