import { Controller, Injectable } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { type EventEnvelope, followAnnounced, type FollowChangePayload, userDeleted, type UserDeletedPayload, userFollowed, userUnfollowed } from '@shiliu/contracts';
import { type EventContext, rowsOf } from '@shiliu/platform';
import type { EntityManager } from 'typeorm';

/** The `user_counters` read model: social's counts, newest event wins per counter. */
@Injectable()
export class UserCounterRepository {
  async followCount(manager: EntityManager, id: number, count: number, occurredAt: string): Promise<void> {
    await rowsOf(
      manager,
      `INSERT INTO "user_counters" ("user_id", "follow_count", "follows_as_of") VALUES ($1, $2, $3)
       ON CONFLICT ("user_id") DO UPDATE SET "follow_count" = EXCLUDED."follow_count", "follows_as_of" = EXCLUDED."follows_as_of"
       WHERE "user_counters"."follows_as_of" <= EXCLUDED."follows_as_of"`,
      [id, count, occurredAt],
    );
  }

  async fansCount(manager: EntityManager, id: number, count: number, occurredAt: string): Promise<void> {
    await rowsOf(
      manager,
      `INSERT INTO "user_counters" ("user_id", "fans_count", "fans_as_of") VALUES ($1, $2, $3)
       ON CONFLICT ("user_id") DO UPDATE SET "fans_count" = EXCLUDED."fans_count", "fans_as_of" = EXCLUDED."fans_as_of"
       WHERE "user_counters"."fans_as_of" <= EXCLUDED."fans_as_of"`,
      [id, count, occurredAt],
    );
  }

  async remove(manager: EntityManager, id: number): Promise<void> {
    await rowsOf(manager, `DELETE FROM "user_counters" WHERE "user_id" = $1`, [id]);
  }
}

/** Follow counts from social's events (and its re-announcements when this read model starts empty). */
@Controller()
export class UserCountersHandler {
  constructor(private readonly counters: UserCounterRepository) {}

  @EventPattern([userFollowed.type, userUnfollowed.type, followAnnounced.type])
  async changed(@Payload() envelope: EventEnvelope<FollowChangePayload>, @Ctx() context: EventContext): Promise<void> {
    const payload = envelope.payload;
    await this.counters.followCount(context.manager, payload.follower_id, payload.follower_follow_count, envelope.occurredAt);
    await this.counters.fansCount(context.manager, payload.following_id, payload.following_fans_count, envelope.occurredAt);
  }

  @EventPattern(userDeleted.type)
  async deleted(@Payload() envelope: EventEnvelope<UserDeletedPayload>, @Ctx() context: EventContext): Promise<void> {
    await this.counters.remove(context.manager, envelope.payload.id);
  }
}
