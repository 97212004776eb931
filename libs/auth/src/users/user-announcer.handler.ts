import { Controller, Inject } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { backfillRequested, type BackfillRequestedPayload, type EventEnvelope, userAnnounced } from '@shiliu/contracts';
import { type EventContext, Outbox } from '@shiliu/platform';
import { profileSnapshot } from './public-user';
import { UserRepository } from './user.repository';

/**
 * Re-announces every user when a read model asks (libs/platform/README.md, "Read models and backfill"). The rows
 * are read FOR SHARE, so a change committing meanwhile is either in the snapshot or announced after it.
 */
@Controller()
export class UserAnnouncer {
  constructor(@Inject(Outbox) private readonly outbox: Outbox, private readonly users: UserRepository) {}

  @EventPattern(backfillRequested.type)
  async announce(@Payload() envelope: EventEnvelope<BackfillRequestedPayload>, @Ctx() context: EventContext): Promise<void> {
    if (!envelope.payload.entities.includes('user')) return;
    for (const user of await this.users.allForShare(context.manager)) await this.outbox.add(context.manager, userAnnounced, { user: profileSnapshot(user) });
  }
}
