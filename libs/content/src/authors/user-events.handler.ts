import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import {
  type EventEnvelope,
  userAnnounced,
  type UserAnnouncedPayload,
  userDeleted,
  type UserDeletedPayload,
  userRegistered,
  type UserRegisteredPayload,
  userUpdated,
  type UserUpdatedPayload,
  userVerified,
  type UserVerifiedPayload,
} from '@shiliu/contracts';
import type { EventContext } from '@shiliu/platform';
import { AccountRemovalService } from './account-removal.service';
import { AuthorRepository } from './author.repository';

/** Keeps the author snapshot in step with auth, and clears a deleted user's content. */
@Controller()
export class UserEventsHandler {
  constructor(private readonly authors: AuthorRepository, private readonly removal: AccountRemovalService) {}

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

  @EventPattern(userDeleted.type)
  async deleted(@Payload() envelope: EventEnvelope<UserDeletedPayload>, @Ctx() context: EventContext): Promise<void> {
    await this.removal.remove(context.manager, envelope.payload.id);
  }
}
