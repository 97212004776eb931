import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import {
  type EventEnvelope,
  userAnnounced,
  type UserAnnouncedPayload,
  userRegistered,
  type UserRegisteredPayload,
  userUpdated,
  type UserUpdatedPayload,
  userVerified,
  type UserVerifiedPayload,
} from '@shiliu/contracts';
import type { EventContext } from '@shiliu/platform';
import { AuthorRepository } from './author.repository';

/** Keeps the author snapshot of feed cards in step with auth's users. */
@Controller()
export class RefreshAuthorSnapshotWhenUserChanges {
  constructor(private readonly authors: AuthorRepository) {}

  @EventPattern(userRegistered.type)
  async registered(@Payload() envelope: EventEnvelope<UserRegisteredPayload>, @Ctx() context: EventContext): Promise<void> {
    await this.authors.upsert(context.manager, envelope.payload.user);
  }

  @EventPattern(userUpdated.type)
  async updated(@Payload() envelope: EventEnvelope<UserUpdatedPayload>, @Ctx() context: EventContext): Promise<void> {
    await this.authors.upsert(context.manager, envelope.payload.user);
  }

  /** A backfill: the order per user keeps it from overwriting a newer change. */
  @EventPattern(userAnnounced.type)
  async announced(@Payload() envelope: EventEnvelope<UserAnnouncedPayload>, @Ctx() context: EventContext): Promise<void> {
    await this.authors.upsert(context.manager, envelope.payload.user);
  }

  @EventPattern(userVerified.type)
  async verified(@Payload() envelope: EventEnvelope<UserVerifiedPayload>, @Ctx() context: EventContext): Promise<void> {
    await this.authors.setVerified(context.manager, envelope.payload.id, envelope.payload.verified);
  }
}
