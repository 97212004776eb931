import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { type EventEnvelope, postAnnounced, type PostAnnouncedPayload } from '@shiliu/contracts';
import type { EventContext } from '@shiliu/platform';
import { PostRepository } from './post.repository';

/** A backfill: the note and its counts as of the announcement, none of it over anything newer. */
@Controller()
export class BackfillNoteWhenPostIsAnnounced {
  constructor(private readonly posts: PostRepository) {}

  @EventPattern(postAnnounced.type)
  async announced(@Payload() envelope: EventEnvelope<PostAnnouncedPayload>, @Ctx() context: EventContext): Promise<void> {
    const { post, like_count, collect_count } = envelope.payload;
    await this.posts.published(context.manager, post, envelope.occurredAt);
    await this.posts.likes(context.manager, post.id, post.author_id, like_count, envelope.occurredAt);
    await this.posts.collections(context.manager, post.id, post.author_id, collect_count, envelope.occurredAt);
  }
}
