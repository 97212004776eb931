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
import { ObjectCleanupService } from './object-cleanup.service';
import { commentHolder, keysOf } from './upload-holders';

/** What a comment uses; an image an edit took out is removed once nothing else uses it. */
@Controller()
export class RecordCommentImagesWhenCommentIsSaved {
  constructor(private readonly cleanup: ObjectCleanupService) {}

  @EventPattern([commentCreated.type, commentUpdated.type])
  async commented(@Payload() envelope: EventEnvelope<CommentCreatedPayload | CommentUpdatedPayload>, @Ctx() context: EventContext): Promise<void> {
    const { comment } = envelope.payload;
    await this.cleanup.use(context.manager, commentHolder(comment.post_id, comment.id), comment.author_id, keysOf(comment.images));
  }
}
