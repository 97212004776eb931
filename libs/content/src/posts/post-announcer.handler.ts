import { Controller, Inject } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { backfillRequested, type BackfillRequestedPayload, type EventEnvelope, postAnnounced } from '@shiliu/contracts';
import { announceInBatches, LOGGER, Outbox } from '@shiliu/platform';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { PostRepository } from './post.repository';

/**
 * Re-announces every published note when a read model asks (libs/platform/README.md, "Read models and backfill"),
 * naming who likes and collects each, in batches so that live likes never wait behind the whole table.
 */
@Controller()
export class PostAnnouncer {
  constructor(
    private readonly posts: PostRepository,
    @Inject(Outbox) private readonly outbox: Outbox,
    private readonly dataSource: DataSource,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @EventPattern(backfillRequested.type)
  async announce(@Payload() envelope: EventEnvelope<BackfillRequestedPayload>): Promise<void> {
    if (!envelope.payload.entities.includes('post')) return;
    await announceInBatches(this.dataSource, this.logger, {
      entity: 'post',
      read: (manager, after, limit) => this.posts.publishedForShare(manager, after, limit),
      keyOf: (row) => Number(row.id),
      announce: async (manager, rows) => {
        for (const { id, like_count, collect_count, comment_count } of rows) {
          const { likedBy, collectedBy } = await this.posts.reactorsForShare(manager, Number(id));
          await this.outbox.add(manager, postAnnounced, {
            post: await this.posts.snapshot(manager, Number(id)),
            like_count,
            collect_count,
            comment_count,
            liked_by: likedBy,
            collected_by: collectedBy,
          });
        }
      },
    });
  }
}
