import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { type EventEnvelope, postDeleted, type PostDeletedPayload } from '@shiliu/contracts';
import type { EventContext } from '@shiliu/platform';
import { PostRepository } from './post.repository';

/** A deleted note leaves the hover card and its author's counters. */
@Controller()
export class RemoveNoteWhenPostIsDeleted {
  constructor(private readonly posts: PostRepository) {}

  @EventPattern(postDeleted.type)
  async deleted(@Payload() envelope: EventEnvelope<PostDeletedPayload>, @Ctx() context: EventContext): Promise<void> {
    await this.posts.deleted(context.manager, envelope.payload.id, envelope.payload.author_id);
  }
}
