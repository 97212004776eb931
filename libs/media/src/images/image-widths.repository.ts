import { Injectable } from '@nestjs/common';
import { rowsOf } from '@shiliu/platform';
import { DataSource } from 'typeorm';

/** The stored images that widths are made of, and the rows that tie a made width to its image. */
@Injectable()
export class ImageWidthsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Up to `limit` keys after `after`, in key order, of the still images uploaded here or used by a note, comment or
   * avatar (which also names the images stored around the upload path, as the demo seed's).
   */
  async imageKeysAfter(after: string, limit: number): Promise<string[]> {
    const rows = await rowsOf<{ key: string }>(
      this.dataSource.manager,
      `SELECT "key" FROM (
         SELECT "key" FROM "uploads" WHERE "kind" IN ('image', 'cover') AND "key" > $1
         UNION SELECT "key" FROM "upload_uses" WHERE "key" > $1
       ) k
       WHERE "key" ~* '\\.(jpe?g|png|webp)$' AND "key" !~ '\\.(thumb|w[0-9]+)\\.webp$'
       ORDER BY "key" LIMIT $2`,
      [after, limit],
    );
    return rows.map((row) => row.key);
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
