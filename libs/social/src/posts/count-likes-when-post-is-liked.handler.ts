import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { type EventEnvelope, postLiked, type PostReactionPayload, postUnliked } from '@shiliu/contracts';
import type { EventContext } from '@shiliu/platform';
import { PostRepository } from './post.repository';

/** A note's like count as the event carries it, and through it its author's likes received. */
@Controller()
export class CountLikesWhenPostIsLiked {
  constructor(private readonly posts: PostRepository) {}

  @EventPattern([postLiked.type, postUnliked.type])
  async likes(@Payload() envelope: EventEnvelope<PostReactionPayload>, @Ctx() context: EventContext): Promise<void> {
    const { post_id, post_author_id, count } = envelope.payload;
    await this.posts.likes(context.manager, post_id, post_author_id, count, envelope.occurredAt);
  }
}
