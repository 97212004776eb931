import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import {
  type EventEnvelope,
  followAnnounced,
  type FollowChangePayload,
  userFollowed,
  userUnfollowed,
} from '@shiliu/contracts';
import type { EventContext } from '@shiliu/platform';
import { Indexer } from '../engine/indexer.service';
import { ViewerStateRepository } from '../viewers/viewer-state.repository';
import { UserRepository } from './user.repository';

/** Social's follows, for each viewer's follow state and the followed user's fans count: a follow, its undoing, or a backfill's announcement of one as it stands. */
@Controller()
export class RecordFollowWhenUserIsFollowed {
  constructor(private readonly users: UserRepository, private readonly viewers: ViewerStateRepository, private readonly indexer: Indexer) {}

  @EventPattern([userFollowed.type, userUnfollowed.type, followAnnounced.type])
  async follows(@Payload() envelope: EventEnvelope<FollowChangePayload>, @Ctx() context: EventContext): Promise<void> {
    const { follower_id, following_id, following_fans_count } = envelope.payload;
    await this.viewers.follow(context.manager, follower_id, following_id, envelope.type !== userUnfollowed.type, envelope.occurredAt);
    await this.indexer.userCounted(await this.users.fans(context.manager, following_id, following_fans_count, envelope.occurredAt));
  }
}
