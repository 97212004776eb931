import { schemaOf } from '@shiliu/platform';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A student's tap (ReactionRepository.react outside a transaction) through `tap`: `react`, committed without
 * waiting for its WAL record to reach the disk. Fifty students liking one note each wait for the note's row, which
 * stays locked until the commit before them ends, and every write that moves a cached note waits for the one
 * lock PostgreSQL takes to queue notifications in commit order: with the flush inside that wait, a note took at most
 * one like per disk flush. Without it, PostgreSQL's WAL writer flushes within 0.6 s (three `wal_writer_delay`s);
 * only a crash of PostgreSQL itself inside that window can lose a tap, and then the like, its counter and its event
 * are lost together, as if the student had not tapped. An administrator's edit, an account's removal and the demo
 * seed call `react` inside their own transactions, whose commits still wait for the flush.
 */
export class TapsCommitWithoutFlush1764500000000 implements MigrationInterface {
  name = 'TapsCommitWithoutFlush1764500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    // set_config(…, true) outlives the call (no SET clause on this function), so it holds when the statement commits.
    await queryRunner.query(`
      CREATE FUNCTION "${s}"."tap"(
        p_kind text, p_user bigint, p_target bigint, p_on boolean, p_check_user boolean,
        p_event_id uuid, p_topic text, p_key text, p_type text, p_envelope jsonb,
        OUT r_known boolean, OUT r_found boolean, OUT r_published boolean, OUT r_changed boolean,
        OUT r_count int, OUT r_author_id bigint, OUT r_post_id bigint)
      LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM set_config('synchronous_commit', 'off', true);
        SELECT * INTO r_known, r_found, r_published, r_changed, r_count, r_author_id, r_post_id
          FROM "${s}"."react"(p_kind, p_user, p_target, p_on, p_check_user, p_event_id, p_topic, p_key, p_type, p_envelope);
      END $$`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION "${schemaOf(queryRunner)}"."tap"(text, bigint, bigint, boolean, boolean, uuid, text, text, text, jsonb)`);
  }
}
