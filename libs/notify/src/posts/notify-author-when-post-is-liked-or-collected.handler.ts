import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { type EventEnvelope, postCollected, postLiked, type PostReactionPayload } from '@shiliu/contracts';
import type { EventContext } from '@shiliu/platform';
import { NotificationType } from '../notifications/notification-type';
import { NotificationRepository } from '../notifications/notification.repository';

/** A like or a collection notifies the note's author. */
@Controller()
export class NotifyAuthorWhenPostIsLikedOrCollected {
  constructor(private readonly notifications: NotificationRepository) {}

  @EventPattern([postLiked.type, postCollected.type])
  async reacted(@Payload() envelope: EventEnvelope<PostReactionPayload>, @Ctx() context: EventContext): Promise<void> {
    const { post_id, post_author_id, user_id } = envelope.payload;
    const type = envelope.type === postLiked.type ? NotificationType.likePost : NotificationType.collectPost;
    await this.notifications.add(context.manager, {
      userId: post_author_id,
      senderId: user_id,
      type,
      targetId: post_id,
      postId: post_id,
      commentId: null,
      createdAt: envelope.occurredAt,
    });
  }
}
