import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import {
  type EventEnvelope,
  postDraftSaved,
  type PostDraftSavedPayload,
  postPublished,
  type PostPublishedPayload,
  postUpdated,
  type PostUpdatedPayload,
} from '@shiliu/contracts';
import type { EventContext } from '@shiliu/platform';
import { ObjectCleanupService } from './object-cleanup.service';
import { keysOf, noteHolder } from './upload-holders';

/** What a note, published or draft, uses; an image an edit took out is removed once nothing else uses it. */
@Controller()
export class RecordNoteUploadsWhenPostIsSaved {
  constructor(private readonly cleanup: ObjectCleanupService) {}

  @EventPattern([postPublished.type, postUpdated.type, postDraftSaved.type])
  async noted(@Payload() envelope: EventEnvelope<PostPublishedPayload | PostUpdatedPayload | PostDraftSavedPayload>, @Ctx() context: EventContext): Promise<void> {
    const { post } = envelope.payload;
    await this.cleanup.use(context.manager, noteHolder(post.id), post.author_id, keysOf([...post.images, post.video_url, post.cover_url]));
  }
}
