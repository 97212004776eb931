import { Controller, Inject } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { backfillRequested, type BackfillRequestedPayload, type EventEnvelope, followAnnounced } from '@shiliu/contracts';
import { announceInBatches, LOGGER, Outbox } from '@shiliu/platform';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { FollowRepository } from './follow.repository';

/**
 * Re-announces every follow when a read model asks (libs/platform/README.md, "Read models and backfill"), with both
 * users' counters as they stand, in batches so that live follows never wait behind the whole graph.
 */
@Controller()
export class FollowAnnouncer {
  constructor(
    private readonly follows: FollowRepository,
    @Inject(Outbox) private readonly outbox: Outbox,
    private readonly dataSource: DataSource,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @EventPattern(backfillRequested.type)
  async announce(@Payload() envelope: EventEnvelope<BackfillRequestedPayload>): Promise<void> {
    if (!envelope.payload.entities.includes('follow')) return;
    await announceInBatches(this.dataSource, this.logger, {
      entity: 'follow',
      read: (manager, after, limit) => this.follows.batchForShare(manager, after, limit),
      keyOf: (row) => row.id,
      announce: async (manager, rows) => {
        for (const { follow } of rows) await this.outbox.add(manager, followAnnounced, follow);
      },
    });
  }
}
