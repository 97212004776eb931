import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { type EventEnvelope, followAnnounced, type FollowChangePayload, userFollowed } from '@shiliu/contracts';
import type { EventContext } from '@shiliu/platform';
import { FollowGraphRepository } from './follow-graph.repository';

/** Records a follow (or a backfill's announcement of one) and the followed user's fans count, for the 关注 feed and the suggestions. */
@Controller()
export class RememberFollowWhenUserFollows {
  constructor(private readonly graph: FollowGraphRepository) {}

  @EventPattern([userFollowed.type, followAnnounced.type])
  async followed(@Payload() envelope: EventEnvelope<FollowChangePayload>, @Ctx() context: EventContext): Promise<void> {
    const { follower_id, following_id, following_fans_count } = envelope.payload;
    await this.graph.remember(context.manager, follower_id, following_id, true, envelope.occurredAt);
    await this.graph.countFans(context.manager, following_id, following_fans_count, envelope.occurredAt);
  }
}
