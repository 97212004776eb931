import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { type EventEnvelope, userDeleted, type UserDeletedPayload } from '@shiliu/contracts';
import type { EventContext } from '@shiliu/platform';
import { AccountRemovalService } from './account-removal.service';

/** Clears a deleted user's content (AccountRemovalService says what goes). */
@Controller()
export class RemoveContentWhenUserIsDeleted {
  constructor(private readonly removal: AccountRemovalService) {}

  @EventPattern(userDeleted.type)
  async deleted(@Payload() envelope: EventEnvelope<UserDeletedPayload>, @Ctx() context: EventContext): Promise<void> {
    await this.removal.remove(context.manager, envelope.payload.id);
  }
}
