import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { type EventEnvelope, userDeleted, type UserDeletedPayload } from '@shiliu/contracts';
import type { EventContext } from '@shiliu/platform';
import { ObjectCleanupService } from './object-cleanup.service';
import { avatarHolder } from './upload-holders';

/** A deleted account's avatar and uploads are removed once nothing else uses them. */
@Controller()
export class ReleaseUploadsWhenUserIsDeleted {
  constructor(private readonly cleanup: ObjectCleanupService) {}

  @EventPattern(userDeleted.type)
  async userDeleted(@Payload() envelope: EventEnvelope<UserDeletedPayload>, @Ctx() context: EventContext): Promise<void> {
    await this.cleanup.letGo(context.manager, avatarHolder(envelope.payload.id), envelope.payload.id);
    await this.cleanup.releaseOwner(context.manager, envelope.payload.id);
  }
}
