import { Controller, Inject } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { backfillRequested, type BackfillRequestedPayload, type EventEnvelope, userAnnounced } from '@shiliu/contracts';
import { announceInBatches, EventContext, LOGGER, Outbox } from '@shiliu/platform';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { BannedWordsService } from './banned-words/banned-words.service';
import { profileSnapshot } from './users/public-user';
import { UserRepository } from './users/user.repository';

/**
 * Re-announces what auth owns when a read model asks (libs/platform/README.md, "Read models and backfill"): every
 * user, in batches so that live profile edits never wait behind the whole table, and the banned-word list. One
 * handler for both, since a service has one handler per event type.
 */
@Controller()
export class AnnounceWhenBackfillRequested {
  constructor(
    @Inject(Outbox) private readonly outbox: Outbox,
    private readonly users: UserRepository,
    private readonly bannedWords: BannedWordsService,
    private readonly dataSource: DataSource,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @EventPattern(backfillRequested.type)
  async announce(@Payload() envelope: EventEnvelope<BackfillRequestedPayload>, @Ctx() context: EventContext): Promise<void> {
    if (envelope.payload.entities.includes('banned-words')) await this.bannedWords.announce(context.manager);
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
