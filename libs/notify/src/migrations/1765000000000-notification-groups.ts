import { schemaOf } from '@shiliu/platform';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Likes and collections grouped by target and day (`?group=target`): one recipient's notifications of one type,
 * target and campus day (Asia/Shanghai) sit together, so marking a group read is one index look-up, not a scan of
 * every like the recipient was ever told of. The expression must stay the one `notification.repository.ts` groups by.
 */
export class NotificationGroups1765000000000 implements MigrationInterface {
  name = 'NotificationGroups1765000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "notifications_group" ON "${schemaOf(queryRunner)}"."notifications"
         ("user_id", "type", "target_id", (("created_at" AT TIME ZONE 'Asia/Shanghai')::date)) WHERE "hidden_by" IS NULL AND "type" IN (1, 2, 3)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "${schemaOf(queryRunner)}"."notifications_group"`);
  }
}
