import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { commentCreated, type CommentCreatedPayload, type EventEnvelope } from '@shiliu/contracts';
import type { EventContext } from '@shiliu/platform';
import { ActivityRepository } from '../activities/activity.repository';
import { NotificationType } from '../notifications/notification-type';
import { NotificationRepository } from '../notifications/notification.repository';
import { CommentCopyRepository } from './comment-copy.repository';

/**
 * A new comment's copy (quoted by later notifications), its line in the activity log, and its notification: a reply
 * notifies the user answered, a top-level comment the note's author.
 */
// One class for both: two handlers of one event type would run side by side in its transaction, not in this order.
@Controller()
export class RecordAndNotifyWhenCommentIsCreated {
  constructor(
    private readonly comments: CommentCopyRepository,
    private readonly notifications: NotificationRepository,
    private readonly activities: ActivityRepository,
  ) {}

  @EventPattern(commentCreated.type)
  async created(@Payload() envelope: EventEnvelope<CommentCreatedPayload>, @Ctx() context: EventContext): Promise<void> {
    const { comment } = envelope.payload;
    await this.comments.created(context.manager, comment);
    await this.activities.add(context.manager, {
      type: 'comment_publish',
      userId: comment.author_id,
      targetId: comment.id,
      postId: comment.post_id,
      content: comment.content_text,
      createdAt: envelope.occurredAt,
    });
    const reply = comment.reply_to_user_id !== null;
    await this.notifications.add(context.manager, {
      userId: reply ? comment.reply_to_user_id! : comment.post_author_id,
      senderId: comment.author_id,
      type: reply ? NotificationType.replyComment : NotificationType.commentPost,
      targetId: comment.id,
      postId: comment.post_id,
      commentId: comment.id,
      replyToCommentId: comment.reply_to_comment_id,
      createdAt: envelope.occurredAt,
    });
  }
}
