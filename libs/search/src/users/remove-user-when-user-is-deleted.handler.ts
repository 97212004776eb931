import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { type EventEnvelope, userDeleted, type UserDeletedPayload } from '@shiliu/contracts';
import type { EventContext } from '@shiliu/platform';
import { Indexer } from '../engine/indexer.service';
import { ViewerStateRepository } from '../viewers/viewer-state.repository';
import { UserRepository } from './user.repository';

/** A deleted user leaves the index and every viewer's state. */
@Controller()
export class RemoveUserWhenUserIsDeleted {
  constructor(private readonly users: UserRepository, private readonly viewers: ViewerStateRepository, private readonly indexer: Indexer) {}

  @EventPattern(userDeleted.type)
  async deleted(@Payload() envelope: EventEnvelope<UserDeletedPayload>, @Ctx() context: EventContext): Promise<void> {
    await this.viewers.forgetUser(context.manager, envelope.payload.id);
    await this.indexer.user(context.manager, await this.users.deleted(context.manager, envelope.payload.id));
  }
}
