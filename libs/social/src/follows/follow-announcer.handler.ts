import { Controller, Inject } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { backfillRequested, type BackfillRequestedPayload, type EventEnvelope, followAnnounced } from '@shiliu/contracts';
import { type EventContext, Outbox } from '@shiliu/platform';
import { FollowRepository } from './follow.repository';

/**
 * Re-announces every follow when a read model asks (libs/platform/README.md, "Read models and backfill"), with both
 * users' counters as they stand. The rows are read FOR SHARE, so a change committing meanwhile is either in the
 * announcement or announced after it.
 */
@Controller()
export class FollowAnnouncer {
  constructor(
    private readonly follows: FollowRepository,
    @Inject(Outbox) private readonly outbox: Outbox,
  ) {}

  @EventPattern(backfillRequested.type)
  async announce(@Payload() envelope: EventEnvelope<BackfillRequestedPayload>, @Ctx() context: EventContext): Promise<void> {
    if (!envelope.payload.entities.includes('follow')) return;
    const follows = await this.follows.allForShare(context.manager);
    for (const follow of follows) await this.outbox.add(context.manager, followAnnounced, follow);
  }
}
