import { schemaOf } from '@shiliu/platform';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A student's like, unlike, collection or uncollection as one call (ReactionRepository.react), still one round trip,
 * but each step its own statement. As one statement (a chain of CTEs) every step read the snapshot taken before the
 * target's lock was granted: an unlike sent while the same student's like was committing waited for that like, then
 * could not see its row, removed nothing and answered "not liked" while the like stayed. Here the row is added or
 * removed by a statement that starts once the lock is held, and so sees every reaction committed before it.
 */
export class ReactionFunction1764300000000 implements MigrationInterface {
  name = 'ReactionFunction1764300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    // Out parameters carry an r_ prefix: plain names (found, count, post_id) would shadow PL/pgSQL's FOUND and the columns.
    await queryRunner.query(`
      CREATE FUNCTION "${s}"."react"(
        p_kind text, p_user bigint, p_target bigint, p_on boolean, p_check_user boolean,
        p_event_id uuid, p_topic text, p_key text, p_type text, p_envelope jsonb,
        OUT r_known boolean, OUT r_found boolean, OUT r_published boolean, OUT r_changed boolean,
        OUT r_count int, OUT r_author_id bigint, OUT r_post_id bigint)
      LANGUAGE plpgsql AS $$
      DECLARE
        moved int := 0;
        step int := CASE WHEN p_on THEN 1 ELSE -1 END;
        like_type smallint := CASE WHEN p_kind = 'comment like' THEN 2 ELSE 1 END;
      BEGIN
        r_known := true; r_found := false; r_published := false; r_changed := false; r_count := 0;
        IF p_check_user THEN
          PERFORM FROM "${s}"."authors" a WHERE a."id" = p_user FOR KEY SHARE;
          IF NOT FOUND THEN r_known := false; RETURN; END IF;
        END IF;

        IF p_kind = 'comment like' THEN
          SELECT c."author_id", c."post_id", c."like_count", true INTO r_author_id, r_post_id, r_count, r_published
            FROM "${s}"."comments" c WHERE c."id" = p_target FOR NO KEY UPDATE;
        ELSE
          SELECT p."author_id", p."id", CASE WHEN p_kind = 'collection' THEN p."collect_count" ELSE p."like_count" END, NOT p."is_draft"
            INTO r_author_id, r_post_id, r_count, r_published
            FROM "${s}"."posts" p WHERE p."id" = p_target FOR NO KEY UPDATE;
        END IF;
        IF NOT FOUND THEN r_published := false; r_count := 0; RETURN; END IF;
        r_found := true;

        IF p_kind = 'collection' THEN
          IF NOT p_on THEN
            DELETE FROM "${s}"."collections" k WHERE k."user_id" = p_user AND k."post_id" = p_target;
            GET DIAGNOSTICS moved = ROW_COUNT;
          ELSIF r_published THEN
            INSERT INTO "${s}"."collections" ("user_id", "post_id") VALUES (p_user, p_target) ON CONFLICT DO NOTHING;
            GET DIAGNOSTICS moved = ROW_COUNT;
          END IF;
        ELSE
          IF NOT p_on THEN
            DELETE FROM "${s}"."likes" l WHERE l."user_id" = p_user AND l."target_type" = like_type AND l."target_id" = p_target;
            GET DIAGNOSTICS moved = ROW_COUNT;
          ELSIF r_published THEN
            INSERT INTO "${s}"."likes" ("user_id", "target_type", "target_id") VALUES (p_user, like_type, p_target) ON CONFLICT DO NOTHING;
            GET DIAGNOSTICS moved = ROW_COUNT;
          END IF;
        END IF;
        IF moved = 0 THEN RETURN; END IF;
        r_changed := true;

        IF p_kind = 'comment like' THEN
          UPDATE "${s}"."comments" c SET "like_count" = c."like_count" + step WHERE c."id" = p_target RETURNING c."like_count" INTO r_count;
        ELSIF p_kind = 'collection' THEN
          UPDATE "${s}"."posts" p SET "collect_count" = p."collect_count" + step WHERE p."id" = p_target RETURNING p."collect_count" INTO r_count;
        ELSE
          UPDATE "${s}"."posts" p SET "like_count" = p."like_count" + step WHERE p."id" = p_target RETURNING p."like_count" INTO r_count;
        END IF;

        INSERT INTO "${s}"."outbox" ("id", "topic", "key", "type", "envelope")
        VALUES (p_event_id, p_topic, p_key, p_type, jsonb_set(p_envelope, '{payload}', (p_envelope -> 'payload') || jsonb_build_object('count', r_count)
          || CASE WHEN p_kind = 'comment like' THEN jsonb_build_object('comment_author_id', r_author_id, 'post_id', r_post_id)
                  ELSE jsonb_build_object('post_author_id', r_author_id) END));
      END $$`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION "${schemaOf(queryRunner)}"."react"(text, bigint, bigint, boolean, boolean, uuid, text, text, text, jsonb)`);
  }
}
