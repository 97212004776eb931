import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { type EventEnvelope, userMentioned, type UserMentionedPayload } from '@shiliu/contracts';
import type { EventContext } from '@shiliu/platform';
import { NotificationType } from '../notifications/notification-type';
import { NotificationRepository } from '../notifications/notification.repository';

/**
 * A mention in a note (type 8) or in a comment (type 7). A comment's mentions travel after the comment on its topic
 * and key, so the comment or reply notification is there first and a mention of the same person adds nothing to it.
 */
@Controller()
export class NotifyWhenUserIsMentioned {
  constructor(private readonly notifications: NotificationRepository) {}

  @EventPattern(userMentioned.type)
  async mentioned(@Payload() envelope: EventEnvelope<UserMentionedPayload>, @Ctx() context: EventContext): Promise<void> {
    const { source, post_id, comment_id, mentioned_user_id, author_id } = envelope.payload;
    const inComment = source === 'comment' && comment_id !== null;
    await this.notifications.add(context.manager, {
      userId: mentioned_user_id,
      senderId: author_id,
      type: inComment ? NotificationType.mentionInComment : NotificationType.mentionInPost,
      targetId: inComment ? comment_id : post_id,
      postId: post_id,
      commentId: inComment ? comment_id : null,
      createdAt: envelope.occurredAt,
    });
  }
}
