import { schemaOf } from '@shiliu/platform';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** What media told us of each uploaded image (media.image.processed): notes copy it when they take the image. */
export class ImageDetails1763810000000 implements MigrationInterface {
  name = 'ImageDetails1763810000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "${schemaOf(queryRunner)}"."image_details" (
        "url" text PRIMARY KEY,
        "width" int NOT NULL,
        "height" int NOT NULL,
        "blurhash" text NOT NULL,
        "thumbnail_url" text NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "${schemaOf(queryRunner)}"."image_details"`);
  }
}
