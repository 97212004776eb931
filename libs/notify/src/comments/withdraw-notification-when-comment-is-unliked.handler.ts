import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { type CommentReactionPayload, commentUnliked, type EventEnvelope } from '@shiliu/contracts';
import type { EventContext } from '@shiliu/platform';
import { NotificationType } from '../notifications/notification-type';
import { NotificationRepository } from '../notifications/notification.repository';
import { CommentCopyRepository } from './comment-copy.repository';

/** An undone comment like: its count on the comment copy, and its notification withdrawn. */
// One class for both: two handlers of one event type would run side by side in its transaction, not in this order.
@Controller()
export class WithdrawNotificationWhenCommentIsUnliked {
  constructor(private readonly comments: CommentCopyRepository, private readonly notifications: NotificationRepository) {}

  @EventPattern(commentUnliked.type)
  async unliked(@Payload() envelope: EventEnvelope<CommentReactionPayload>, @Ctx() context: EventContext): Promise<void> {
    const { comment_id, post_id, comment_author_id, user_id, count } = envelope.payload;
    await this.comments.liked(context.manager, comment_id, post_id, user_id, false, count, envelope.occurredAt);
    await this.notifications.withdraw(context.manager, { userId: comment_author_id, senderId: user_id, type: NotificationType.likeComment, targetId: comment_id });
  }
}
