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

  /** Marks the objects (and what was made from them) as used, so the orphan sweep keeps them. */
  async attach(manager: EntityManager, keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    await manager.query(
      `UPDATE "uploads" SET "attached_at" = now() WHERE "attached_at" IS NULL AND ("key" = ANY($1) OR "source_key" = ANY($1))`,
      [keys],
    );
  }

  /**
   * Drops an owner's rows for the objects (and what was made from them) and answers the keys no one holds any
   * more, which the caller removes from storage. Without keys, every row of the owner goes.
   */
  async release(manager: EntityManager, ownerId: number, keys?: string[]): Promise<string[]> {
    const rows = await rowsOf<{ key: string }>(
      manager,
      keys
        ? `DELETE FROM "uploads" WHERE "owner_id" = $1 AND ("key" = ANY($2) OR "source_key" = ANY($2)) RETURNING "key"`
        : `DELETE FROM "uploads" WHERE "owner_id" = $1 RETURNING "key"`,
      keys ? [ownerId, keys] : [ownerId],
    );
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

  private async unheld(manager: EntityManager, keys: string[]): Promise<string[]> {
    if (keys.length === 0) return [];
    const held: { key: string }[] = await manager.query(`SELECT DISTINCT "key" FROM "uploads" WHERE "key" = ANY($1)`, [keys]);
    const heldKeys = new Set(held.map((row) => row.key));
    return [...new Set(keys)].filter((key) => !heldKeys.has(key));
  }
}
