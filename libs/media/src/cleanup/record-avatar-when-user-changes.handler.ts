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
import { ImageWidthsBackfill } from '../images/image-widths.backfill';
import { ObjectCleanupService } from './object-cleanup.service';
import { avatarHolder, keysOf } from './upload-holders';

/**
 * The avatar a user shows; the one it replaced is removed once nothing else uses it. Images stored
 * around the upload path (the demo seed's) get their shown widths here, before the event counts as handled.
 */
@Controller()
export class RecordAvatarWhenUserChanges {
  constructor(
    private readonly cleanup: ObjectCleanupService,
    private readonly widths: ImageWidthsBackfill,
  ) {}

  @EventPattern([userRegistered.type, userUpdated.type])
  async profiled(@Payload() envelope: EventEnvelope<UserRegisteredPayload | UserUpdatedPayload>, @Ctx() context: EventContext): Promise<void> {
    const { user } = envelope.payload;
    const keys = keysOf([user.avatar]);
    await this.cleanup.use(context.manager, avatarHolder(user.id), user.id, keys);
    await this.widths.ensure(keys);
  }
}
