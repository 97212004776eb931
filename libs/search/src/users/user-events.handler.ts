import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import {
  type EventEnvelope,
  followAnnounced,
  type FollowChangePayload,
  userAnnounced,
  userDeleted,
  type UserDeletedPayload,
  userFollowed,
  type UserProfileSnapshot,
  userRegistered,
  userUnfollowed,
  userUpdated,
  userVerified,
  type UserVerifiedPayload,
} from '@shiliu/contracts';
import type { EventContext } from '@shiliu/platform';
import { Indexer } from '../engine/indexer.service';
import { ViewerStateRepository } from '../viewers/viewer-state.repository';
import { UserRepository } from './user.repository';

/** Indexes auth's users and keeps social's follows, for the users found and each viewer's follow state. */
@Controller()
export class UserEventsHandler {
  constructor(private readonly users: UserRepository, private readonly viewers: ViewerStateRepository, private readonly indexer: Indexer) {}

  @EventPattern([userRegistered.type, userUpdated.type, userAnnounced.type])
  async upsert(@Payload() envelope: EventEnvelope<{ user: UserProfileSnapshot }>, @Ctx() context: EventContext): Promise<void> {
    await this.indexer.user(context.manager, await this.users.upsert(context.manager, envelope.payload.user, envelope.occurredAt));
  }

  @EventPattern(userVerified.type)
  async verified(@Payload() envelope: EventEnvelope<UserVerifiedPayload>, @Ctx() context: EventContext): Promise<void> {
    await this.users.verified(context.manager, envelope.payload.id, envelope.payload.verified, envelope.occurredAt);
  }

  @EventPattern(userDeleted.type)
  async deleted(@Payload() envelope: EventEnvelope<UserDeletedPayload>, @Ctx() context: EventContext): Promise<void> {
    await this.viewers.forgetUser(context.manager, envelope.payload.id);
    await this.indexer.user(context.manager, await this.users.deleted(context.manager, envelope.payload.id));
  }

  /** A follow, its undoing, or a backfill's announcement of one as it stands. */
  @EventPattern([userFollowed.type, userUnfollowed.type, followAnnounced.type])
  async follows(@Payload() envelope: EventEnvelope<FollowChangePayload>, @Ctx() context: EventContext): Promise<void> {
    const { follower_id, following_id, following_fans_count } = envelope.payload;
    await this.viewers.follow(context.manager, follower_id, following_id, envelope.type !== userUnfollowed.type, envelope.occurredAt);
    await this.indexer.userCounted(await this.users.fans(context.manager, following_id, following_fans_count, envelope.occurredAt));
  }
}
