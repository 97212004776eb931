import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { type EventEnvelope, postPublished, type PostSnapshot, postUpdated } from '@shiliu/contracts';
import type { EventContext } from '@shiliu/platform';
import { Indexer } from '../engine/indexer.service';
import { PostRepository } from './post.repository';

/** Indexes content's notes as they are published and edited; drafts cause no event, so they are never indexed. */
@Controller()
export class IndexNoteWhenPostIsPublished {
  constructor(private readonly posts: PostRepository, private readonly indexer: Indexer) {}

  @EventPattern([postPublished.type, postUpdated.type])
  async published(@Payload() envelope: EventEnvelope<{ post: PostSnapshot }>, @Ctx() context: EventContext): Promise<void> {
    await this.indexer.post(context.manager, await this.posts.published(context.manager, envelope.payload.post, envelope.occurredAt));
  }
}
