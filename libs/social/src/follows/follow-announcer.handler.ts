import { Controller, Inject } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { backfillRequested, type BackfillRequestedPayload, type EventEnvelope, followAnnounced, type FollowChangePayload } from '@shiliu/contracts';
import { type EventContext, Outbox } from '@shiliu/platform';

/**
 * Re-announces every follow when a read model asks (libs/platform/README.md, "Read models and backfill"), with both
 * users' counters as they stand. The rows are read FOR SHARE, so a change committing meanwhile is either in the
 * announcement or announced after it.
 */
@Controller()
export class FollowAnnouncer {
  constructor(@Inject(Outbox) private readonly outbox: Outbox) {}

  @EventPattern(backfillRequested.type)
  async announce(@Payload() envelope: EventEnvelope<BackfillRequestedPayload>, @Ctx() context: EventContext): Promise<void> {
    if (!envelope.payload.entities.includes('follow')) return;
    const follows: FollowChangePayload[] = await context.manager.query(
      `SELECT "f"."follower_id"::int AS "follower_id", "a"."user_id" AS "follower_user_id", "f"."following_id"::int AS "following_id", "b"."user_id" AS "following_user_id",
              coalesce("sa"."follow_count", 0) AS "follower_follow_count", coalesce("sb"."fans_count", 0) AS "following_fans_count"
         FROM "follows" "f"
         JOIN "user_cards" "a" ON "a"."id" = "f"."follower_id"
         JOIN "user_cards" "b" ON "b"."id" = "f"."following_id"
         LEFT JOIN "user_stats" "sa" ON "sa"."user_id" = "f"."follower_id"
         LEFT JOIN "user_stats" "sb" ON "sb"."user_id" = "f"."following_id"
        ORDER BY "f"."id" FOR SHARE OF "f"`,
    );
    for (const follow of follows) await this.outbox.add(context.manager, followAnnounced, follow);
  }
}
