import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { type EventEnvelope, userRegistered, type UserRegisteredPayload } from '@shiliu/contracts';
import type { EventContext } from '@shiliu/platform';
import { ActivityRepository } from '../activities/activity.repository';
import { SenderRepository } from './sender.repository';

/** A new user's sender snapshot, and the registration in the activity log. */
// One class for both: two handlers of one event type would run side by side in its transaction, not in this order.
@Controller()
export class RecordSenderAndActivityWhenUserRegisters {
  constructor(private readonly senders: SenderRepository, private readonly activities: ActivityRepository) {}

  @EventPattern(userRegistered.type)
  async registered(@Payload() envelope: EventEnvelope<UserRegisteredPayload>, @Ctx() context: EventContext): Promise<void> {
    const { user } = envelope.payload;
    await this.senders.upsert(context.manager, user, envelope.occurredAt);
    await this.activities.add(context.manager, { type: 'user_register', userId: user.id, targetId: user.id, postId: null, content: user.bio, createdAt: envelope.occurredAt });
  }
}
