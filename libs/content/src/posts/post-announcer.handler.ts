import { Controller, Inject } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { backfillRequested, type BackfillRequestedPayload, type EventEnvelope, postAnnounced } from '@shiliu/contracts';
import { type EventContext, Outbox } from '@shiliu/platform';
import { PostRepository } from './post.repository';

/**
 * Re-announces every published note when a read model asks (libs/platform/README.md, "Read models and backfill").
 * The rows are read FOR SHARE, so a change committing meanwhile is either in the snapshot or announced after it.
 */
@Controller()
export class PostAnnouncer {
  constructor(private readonly posts: PostRepository, @Inject(Outbox) private readonly outbox: Outbox) {}

  @EventPattern(backfillRequested.type)
  async announce(@Payload() envelope: EventEnvelope<BackfillRequestedPayload>, @Ctx() context: EventContext): Promise<void> {
    if (!envelope.payload.entities.includes('post')) return;
    for (const { id, like_count, collect_count, comment_count } of await this.posts.publishedForShare(context.manager)) {
      const { likedBy, collectedBy } = await this.posts.reactorsForShare(context.manager, Number(id));
      await this.outbox.add(context.manager, postAnnounced, {
        post: await this.posts.snapshot(context.manager, Number(id)),
        like_count,
        collect_count,
        comment_count,
        liked_by: likedBy,
        collected_by: collectedBy,
      });
    }
  }
}
