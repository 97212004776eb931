import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { commentLiked, type CommentReactionPayload, type EventEnvelope } from '@shiliu/contracts';
import type { EventContext } from '@shiliu/platform';
import { NotificationType } from '../notifications/notification-type';
import { NotificationRepository } from '../notifications/notification.repository';
import { CommentCopyRepository } from './comment-copy.repository';

/** A comment's like: its count on the comment copy, and the comment's author notified. */
// One class for both: two handlers of one event type would run side by side in its transaction, not in this order.
@Controller()
export class NotifyAuthorWhenCommentIsLiked {
  constructor(private readonly comments: CommentCopyRepository, private readonly notifications: NotificationRepository) {}

  @EventPattern(commentLiked.type)
  async liked(@Payload() envelope: EventEnvelope<CommentReactionPayload>, @Ctx() context: EventContext): Promise<void> {
    const { comment_id, post_id, comment_author_id, user_id, count } = envelope.payload;
    await this.comments.liked(context.manager, comment_id, post_id, user_id, true, count, envelope.occurredAt);
    await this.notifications.add(context.manager, {
      userId: comment_author_id,
      senderId: user_id,
      type: NotificationType.likeComment,
      targetId: comment_id,
      postId: post_id,
      commentId: comment_id,
      createdAt: envelope.occurredAt,
    });
  }
}
