import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { type EventEnvelope, type PostReactionPayload, postUncollected, postUnliked } from '@shiliu/contracts';
import type { EventContext } from '@shiliu/platform';
import { NotificationType } from '../notifications/notification-type';
import { NotificationRepository } from '../notifications/notification.repository';

/** An undone like or collection withdraws its notification. */
@Controller()
export class WithdrawNotificationWhenPostIsUnlikedOrUncollected {
  constructor(private readonly notifications: NotificationRepository) {}

  @EventPattern([postUnliked.type, postUncollected.type])
  async undone(@Payload() envelope: EventEnvelope<PostReactionPayload>, @Ctx() context: EventContext): Promise<void> {
    const { post_id, post_author_id, user_id } = envelope.payload;
    const type = envelope.type === postUnliked.type ? NotificationType.likePost : NotificationType.collectPost;
    await this.notifications.withdraw(context.manager, { userId: post_author_id, senderId: user_id, type, targetId: post_id });
  }
}
