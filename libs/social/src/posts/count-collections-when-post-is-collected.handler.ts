import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { type EventEnvelope, postCollected, type PostReactionPayload, postUncollected } from '@shiliu/contracts';
import type { EventContext } from '@shiliu/platform';
import { PostRepository } from './post.repository';

/** A note's collection count as the event carries it, and through it its author's collections received. */
@Controller()
export class CountCollectionsWhenPostIsCollected {
  constructor(private readonly posts: PostRepository) {}

  @EventPattern([postCollected.type, postUncollected.type])
  async collections(@Payload() envelope: EventEnvelope<PostReactionPayload>, @Ctx() context: EventContext): Promise<void> {
    const { post_id, post_author_id, count } = envelope.payload;
    await this.posts.collections(context.manager, post_id, post_author_id, count, envelope.occurredAt);
  }
}
