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
import { Indexer } from '../engine/indexer.service';
import { UserRepository } from './user.repository';

/** Indexes auth's users as they register, change and are verified. */
@Controller()
export class IndexUserWhenUserChanges {
  constructor(private readonly users: UserRepository, private readonly indexer: Indexer) {}

  @EventPattern([userRegistered.type, userUpdated.type, userAnnounced.type])
  async upsert(@Payload() envelope: EventEnvelope<{ user: UserProfileSnapshot }>, @Ctx() context: EventContext): Promise<void> {
    await this.indexer.user(context.manager, await this.users.upsert(context.manager, envelope.payload.user, envelope.occurredAt));
  }

  @EventPattern(userVerified.type)
  async verified(@Payload() envelope: EventEnvelope<UserVerifiedPayload>, @Ctx() context: EventContext): Promise<void> {
    await this.users.verified(context.manager, envelope.payload.id, envelope.payload.verified, envelope.occurredAt);
  }
}
