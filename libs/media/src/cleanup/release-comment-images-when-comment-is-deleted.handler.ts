import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { commentDeleted, type CommentDeletedPayload, type EventEnvelope } from '@shiliu/contracts';
import type { EventContext } from '@shiliu/platform';
import { ObjectCleanupService } from './object-cleanup.service';
import { commentHolder } from './upload-holders';

/** A deleted comment's images are removed once nothing else uses them. */
@Controller()
export class ReleaseCommentImagesWhenCommentIsDeleted {
  constructor(private readonly cleanup: ObjectCleanupService) {}

  @EventPattern(commentDeleted.type)
  async commentDeleted(@Payload() envelope: EventEnvelope<CommentDeletedPayload>, @Ctx() context: EventContext): Promise<void> {
    const { id, post_id, author_id } = envelope.payload;
    await this.cleanup.letGo(context.manager, commentHolder(post_id, id), author_id);
  }
}
