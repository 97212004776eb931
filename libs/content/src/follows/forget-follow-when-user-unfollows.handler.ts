import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { type EventEnvelope, type FollowChangePayload, userUnfollowed } from '@shiliu/contracts';
import type { EventContext } from '@shiliu/platform';
import { FollowGraphRepository } from './follow-graph.repository';

/** Marks a follow undone (kept as an inactive row, so an older announcement cannot revive it) and updates the fans count. */
@Controller()
export class ForgetFollowWhenUserUnfollows {
  constructor(private readonly graph: FollowGraphRepository) {}

  @EventPattern(userUnfollowed.type)
  async unfollowed(@Payload() envelope: EventEnvelope<FollowChangePayload>, @Ctx() context: EventContext): Promise<void> {
    const { follower_id, following_id, following_fans_count } = envelope.payload;
    await this.graph.remember(context.manager, follower_id, following_id, false, envelope.occurredAt);
    await this.graph.countFans(context.manager, following_id, following_fans_count, envelope.occurredAt);
  }
}
