import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { type EventEnvelope, type FollowChangePayload, userFollowed, userUnfollowed } from '@shiliu/contracts';
import type { EventContext } from '@shiliu/platform';
import { NotificationType } from '../notifications/notification-type';
import { NotificationRepository } from '../notifications/notification.repository';
import { SenderRepository } from '../users/sender.repository';

/** A follow notifies the user followed (an unfollow withdraws it), and both users' counters take the event's figures. */
// One class for both: two handlers of one event type would run side by side in its transaction, not in this order.
@Controller()
export class NotifyAndCountFollowsWhenUserIsFollowed {
  constructor(private readonly senders: SenderRepository, private readonly notifications: NotificationRepository) {}

  @EventPattern(userFollowed.type)
  async followed(@Payload() envelope: EventEnvelope<FollowChangePayload>, @Ctx() context: EventContext): Promise<void> {
    const payload = envelope.payload;
    await this.counts(context, envelope);
    await this.notifications.add(context.manager, {
      userId: payload.following_id,
      senderId: payload.follower_id,
      type: NotificationType.follow,
      targetId: payload.follower_id,
      postId: null,
      commentId: null,
      createdAt: envelope.occurredAt,
    });
  }

  @EventPattern(userUnfollowed.type)
  async unfollowed(@Payload() envelope: EventEnvelope<FollowChangePayload>, @Ctx() context: EventContext): Promise<void> {
    const payload = envelope.payload;
    await this.counts(context, envelope);
    await this.notifications.withdraw(context.manager, { userId: payload.following_id, senderId: payload.follower_id, type: NotificationType.follow, targetId: payload.follower_id });
  }

  private async counts(context: EventContext, envelope: EventEnvelope<FollowChangePayload>): Promise<void> {
    const payload = envelope.payload;
    await this.senders.followCount(context.manager, payload.follower_id, payload.follower_follow_count, envelope.occurredAt);
    await this.senders.fansCount(context.manager, payload.following_id, payload.following_fans_count, envelope.occurredAt);
  }
}
