import { Controller, Inject } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { backfillRequested, type BackfillRequestedPayload, type EventEnvelope, userAnnounced } from '@shiliu/contracts';
import { announceInBatches, LOGGER, Outbox } from '@shiliu/platform';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { profileSnapshot } from './public-user';
import { UserRepository } from './user.repository';

/**
 * Re-announces every user when a read model asks (libs/platform/README.md, "Read models and backfill"), in batches
 * so that live profile edits never wait behind the whole table.
 */
@Controller()
export class UserAnnouncer {
  constructor(
    @Inject(Outbox) private readonly outbox: Outbox,
    private readonly users: UserRepository,
    private readonly dataSource: DataSource,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @EventPattern(backfillRequested.type)
  async announce(@Payload() envelope: EventEnvelope<BackfillRequestedPayload>): Promise<void> {
    if (!envelope.payload.entities.includes('user')) return;
    await announceInBatches(this.dataSource, this.logger, {
      entity: 'user',
      read: (manager, after, limit) => this.users.batchForShare(manager, after, limit),
      keyOf: (user) => Number(user.id),
      announce: async (manager, users) => {
        for (const user of users) await this.outbox.add(manager, userAnnounced, { user: profileSnapshot(user) });
      },
    });
  }
}
