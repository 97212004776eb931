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
import { ImageWidthsBackfill } from '../images/image-widths.backfill';
import { ObjectCleanupService } from './object-cleanup.service';
import { keysOf, noteHolder } from './upload-holders';

/**
 * What a note, published or draft, uses; an image an edit took out is removed once nothing else uses it. Images stored
 * around the upload path (the demo seed's) get their shown widths here, before the event counts as handled.
 */
@Controller()
export class RecordNoteUploadsWhenPostIsSaved {
  constructor(
    private readonly cleanup: ObjectCleanupService,
    private readonly widths: ImageWidthsBackfill,
  ) {}

  @EventPattern([postPublished.type, postUpdated.type, postDraftSaved.type])
  async noted(@Payload() envelope: EventEnvelope<PostPublishedPayload | PostUpdatedPayload | PostDraftSavedPayload>, @Ctx() context: EventContext): Promise<void> {
    const { post } = envelope.payload;
    const keys = keysOf([...post.images, post.video_url, post.cover_url]);
    await this.cleanup.use(context.manager, noteHolder(post.id), post.author_id, keys);
    await this.widths.ensure(keys);
  }
}
