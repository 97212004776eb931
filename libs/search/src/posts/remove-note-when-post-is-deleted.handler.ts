import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { type EventEnvelope, postDeleted, type PostDeletedPayload } from '@shiliu/contracts';
import type { EventContext } from '@shiliu/platform';
import { Indexer } from '../engine/indexer.service';
import { ViewerStateRepository } from '../viewers/viewer-state.repository';
import { PostRepository } from './post.repository';

/** A deleted note leaves the index, and its likes and collections the viewers' state. */
@Controller()
export class RemoveNoteWhenPostIsDeleted {
  constructor(private readonly posts: PostRepository, private readonly viewers: ViewerStateRepository, private readonly indexer: Indexer) {}

  @EventPattern(postDeleted.type)
  async deleted(@Payload() envelope: EventEnvelope<PostDeletedPayload>, @Ctx() context: EventContext): Promise<void> {
    await this.viewers.forgetPost(context.manager, envelope.payload.id);
    await this.indexer.post(context.manager, await this.posts.deleted(context.manager, envelope.payload.id, envelope.payload.author_id));
  }
}
