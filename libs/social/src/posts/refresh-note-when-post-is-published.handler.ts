import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { type EventEnvelope, postPublished, type PostSnapshot, postUpdated } from '@shiliu/contracts';
import type { EventContext } from '@shiliu/platform';
import { PostRepository } from './post.repository';

/** Keeps a note's cover for the hover card, and through it its author's note counter, from content's events. */
@Controller()
export class RefreshNoteWhenPostIsPublished {
  constructor(private readonly posts: PostRepository) {}

  @EventPattern([postPublished.type, postUpdated.type])
  async published(@Payload() envelope: EventEnvelope<{ post: PostSnapshot }>, @Ctx() context: EventContext): Promise<void> {
    await this.posts.published(context.manager, envelope.payload.post, envelope.occurredAt);
  }
}
