import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import {
  type EventEnvelope,
  userRegistered,
  type UserRegisteredPayload,
  userUpdated,
  type UserUpdatedPayload,
} from '@shiliu/contracts';
import type { EventContext } from '@shiliu/platform';
import { ObjectCleanupService } from './object-cleanup.service';
import { avatarHolder, keysOf } from './upload-holders';

/** The avatar a user shows; the one it replaced is removed once nothing else uses it. */
@Controller()
export class RecordAvatarWhenUserChanges {
  constructor(private readonly cleanup: ObjectCleanupService) {}

  @EventPattern([userRegistered.type, userUpdated.type])
  async profiled(@Payload() envelope: EventEnvelope<UserRegisteredPayload | UserUpdatedPayload>, @Ctx() context: EventContext): Promise<void> {
    const { user } = envelope.payload;
    await this.cleanup.use(context.manager, avatarHolder(user.id), user.id, keysOf([user.avatar]));
  }
}
