import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import {
  type EventEnvelope,
  userAnnounced,
  type UserAnnouncedPayload,
  userUpdated,
  type UserUpdatedPayload,
  userVerified,
  type UserVerifiedPayload,
} from '@shiliu/contracts';
import type { EventContext } from '@shiliu/platform';
import { SenderRepository } from './sender.repository';

/** Keeps the sender snapshots of notifications in step with auth's users. */
@Controller()
export class RefreshSenderWhenUserChanges {
  constructor(private readonly senders: SenderRepository) {}

  @EventPattern([userUpdated.type, userAnnounced.type])
  async upsert(@Payload() envelope: EventEnvelope<UserUpdatedPayload | UserAnnouncedPayload>, @Ctx() context: EventContext): Promise<void> {
    await this.senders.upsert(context.manager, envelope.payload.user, envelope.occurredAt);
  }

  @EventPattern(userVerified.type)
  async verified(@Payload() envelope: EventEnvelope<UserVerifiedPayload>, @Ctx() context: EventContext): Promise<void> {
    await this.senders.setVerified(context.manager, envelope.payload.id, envelope.payload.verified, envelope.occurredAt);
  }
}
