import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { commentUpdated, type CommentUpdatedPayload, type EventEnvelope } from '@shiliu/contracts';
import type { EventContext } from '@shiliu/platform';
import { ActivityRepository } from '../activities/activity.repository';
import { CommentCopyRepository } from './comment-copy.repository';

/** An edited comment: the quotes and the monitor show its new text; nobody is notified again. */
// One class for both: two handlers of one event type would run side by side in its transaction, not in this order.
@Controller()
export class RefreshCommentWhenCommentIsEdited {
  constructor(private readonly comments: CommentCopyRepository, private readonly activities: ActivityRepository) {}

  @EventPattern(commentUpdated.type)
  async updated(@Payload() envelope: EventEnvelope<CommentUpdatedPayload>, @Ctx() context: EventContext): Promise<void> {
    const { comment } = envelope.payload;
    await this.comments.created(context.manager, comment);
    await this.activities.editComment(context.manager, comment.id, comment.content_text);
  }
}
