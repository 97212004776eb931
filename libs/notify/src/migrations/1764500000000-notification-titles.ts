import { schemaOf } from '@shiliu/platform';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The title an administrator gives a notification made by hand (admin-and-startup.md §5, "Notification form").
 * Null for every other notification, whose title is said by its type and note.
 */
export class NotificationTitles1764500000000 implements MigrationInterface {
  name = 'NotificationTitles1764500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "${schemaOf(queryRunner)}"."notifications" ADD COLUMN "title" varchar(100)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "${schemaOf(queryRunner)}"."notifications" DROP COLUMN "title"`);
  }
}
