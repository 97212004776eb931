import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import {
  type EventEnvelope,
  userAnnounced,
  userDeleted,
  type UserDeletedPayload,
  type UserProfileSnapshot,
  userRegistered,
  userUpdated,
  userVerified,
  type UserVerifiedPayload,
} from '@shiliu/contracts';
import type { EventContext } from '@shiliu/platform';
import { FollowService } from '../follows/follow.service';
import { UserCardRepository } from './user-card.repository';

/** Keeps the user cards in step with auth, and takes a deleted user out of the follow graph. */
@Controller()
export class UserEventsHandler {
  constructor(private readonly cards: UserCardRepository, private readonly follows: FollowService) {}

  @EventPattern([userRegistered.type, userUpdated.type, userAnnounced.type])
  async upsert(@Payload() envelope: EventEnvelope<{ user: UserProfileSnapshot }>, @Ctx() context: EventContext): Promise<void> {
    await this.cards.upsert(context.manager, envelope.payload.user, envelope.occurredAt);
  }

  @EventPattern(userVerified.type)
  async verified(@Payload() envelope: EventEnvelope<UserVerifiedPayload>, @Ctx() context: EventContext): Promise<void> {
    await this.cards.setVerified(context.manager, envelope.payload.id, envelope.payload.verified, envelope.occurredAt);
  }

  @EventPattern(userDeleted.type)
  async deleted(@Payload() envelope: EventEnvelope<UserDeletedPayload>, @Ctx() context: EventContext): Promise<void> {
    await this.follows.removeUser(context.manager, envelope.payload.id);
  }
}
