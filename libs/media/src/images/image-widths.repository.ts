import { Injectable } from '@nestjs/common';
import { rowsOf } from '@shiliu/platform';
import { DataSource, type EntityManager } from 'typeorm';

/** How an image's widths were settled: made, unreadable, or none to make (an animation, a video). */
export type WidthsOutcome = 'made' | 'unreadable' | 'none';

/** The stored images that widths are made of, which of them are settled, and the rows that tie a made width to its image. */
@Injectable()
export class ImageWidthsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Up to `limit` keys after `after`, in key order, of the images uploaded here or used by a note, comment or avatar
   * (which also names the images stored around the upload path, as the demo seed's) whose widths are not settled.
   */
  async unsettledKeysAfter(after: string, limit: number): Promise<string[]> {
    const rows = await rowsOf<{ key: string }>(
      this.dataSource.manager,
      `SELECT "key" FROM (
         SELECT "key" FROM "uploads" WHERE "kind" IN ('image', 'cover') AND "key" > $1
         UNION SELECT "key" FROM "upload_uses" WHERE "key" > $1
       ) k
       WHERE NOT EXISTS (SELECT 1 FROM "image_widths" w WHERE w."key" = k."key")
       ORDER BY "key" LIMIT $2`,
      [after, limit],
    );
    return rows.map((row) => row.key);
  }

  /** Which of these keys are settled. */
  async settledOf(keys: string[]): Promise<Set<string>> {
    const rows = await rowsOf<{ key: string }>(this.dataSource.manager, `SELECT "key" FROM "image_widths" WHERE "key" = ANY($1::text[])`, [keys]);
    return new Set(rows.map((row) => row.key));
  }

  async settle(key: string, outcome: WidthsOutcome, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.query(
      `INSERT INTO "image_widths" ("key", "outcome") VALUES ($1, $2) ON CONFLICT ("key") DO UPDATE SET "outcome" = EXCLUDED."outcome", "settled_at" = now()`,
      [key, outcome],
    );
  }

  /** A made width belongs to whoever uploaded its image, so it goes when the image goes; one nobody uploaded (the demo's) stays with it. */
  async recordWidth(sourceKey: string, key: string, size: number): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO "uploads" ("key", "owner_id", "kind", "source_key", "size", "attached_at")
       SELECT $2, "owner_id", 'thumbnail', "key", $3, "attached_at" FROM "uploads" WHERE "key" = $1
       ON CONFLICT ("key", "owner_id") DO NOTHING`,
      [sourceKey, key, size],
    );
  }
}
