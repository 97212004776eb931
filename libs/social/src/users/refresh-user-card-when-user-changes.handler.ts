import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import {
  type EventEnvelope,
  userAnnounced,
  type UserProfileSnapshot,
  userRegistered,
  userUpdated,
  userVerified,
  type UserVerifiedPayload,
} from '@shiliu/contracts';
import type { EventContext } from '@shiliu/platform';
import { UserCardRepository } from './user-card.repository';

/** Keeps the user cards (hover cards, follow lists) in step with auth's users. */
@Controller()
export class RefreshUserCardWhenUserChanges {
  constructor(private readonly cards: UserCardRepository) {}

  @EventPattern([userRegistered.type, userUpdated.type, userAnnounced.type])
  async upsert(@Payload() envelope: EventEnvelope<{ user: UserProfileSnapshot }>, @Ctx() context: EventContext): Promise<void> {
    await this.cards.upsert(context.manager, envelope.payload.user, envelope.occurredAt);
  }

  @EventPattern(userVerified.type)
  async verified(@Payload() envelope: EventEnvelope<UserVerifiedPayload>, @Ctx() context: EventContext): Promise<void> {
    await this.cards.setVerified(context.manager, envelope.payload.id, envelope.payload.verified, envelope.occurredAt);
  }
}
