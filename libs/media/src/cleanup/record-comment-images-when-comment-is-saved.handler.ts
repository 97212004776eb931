import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import {
  commentCreated,
  type CommentCreatedPayload,
  commentUpdated,
  type CommentUpdatedPayload,
  type EventEnvelope,
} from '@shiliu/contracts';
import type { EventContext } from '@shiliu/platform';
import { ImageWidthsBackfill } from '../images/image-widths.backfill';
import { ObjectCleanupService } from './object-cleanup.service';
import { commentHolder, keysOf } from './upload-holders';

/**
 * What a comment uses; an image an edit took out is removed once nothing else uses it. Images stored
 * around the upload path (the demo seed's) get their shown widths here, before the event counts as handled.
 */
@Controller()
export class RecordCommentImagesWhenCommentIsSaved {
  constructor(
    private readonly cleanup: ObjectCleanupService,
    private readonly widths: ImageWidthsBackfill,
  ) {}

  @EventPattern([commentCreated.type, commentUpdated.type])
  async commented(@Payload() envelope: EventEnvelope<CommentCreatedPayload | CommentUpdatedPayload>, @Ctx() context: EventContext): Promise<void> {
    const { comment } = envelope.payload;
    const keys = keysOf(comment.images);
    await this.cleanup.use(context.manager, commentHolder(comment.post_id, comment.id), comment.author_id, keys);
    await this.widths.ensure(keys);
  }
}
