import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { type EventEnvelope, userDeleted, type UserDeletedPayload } from '@shiliu/contracts';
import type { EventContext } from '@shiliu/platform';
import { FollowService } from '../follows/follow.service';

/** Takes a deleted user out of the follow graph. */
@Controller()
export class RemoveFollowsWhenUserIsDeleted {
  constructor(private readonly follows: FollowService) {}

  @EventPattern(userDeleted.type)
  async deleted(@Payload() envelope: EventEnvelope<UserDeletedPayload>, @Ctx() context: EventContext): Promise<void> {
    await this.follows.removeUser(context.manager, envelope.payload.id);
  }
}
