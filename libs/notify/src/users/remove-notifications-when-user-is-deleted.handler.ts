import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { type EventEnvelope, userDeleted, type UserDeletedPayload } from '@shiliu/contracts';
import type { EventContext } from '@shiliu/platform';
import { ActivityRepository } from '../activities/activity.repository';
import { CommentCopyRepository } from '../comments/comment-copy.repository';
import { NotificationRepository } from '../notifications/notification.repository';
import { UnreadCountRepository } from '../notifications/unread-count.repository';
import { SenderRepository } from './sender.repository';

/** Everything a deleted account sent or received goes, and it leaves the activity log. */
@Controller()
export class RemoveNotificationsWhenUserIsDeleted {
  constructor(
    private readonly senders: SenderRepository,
    private readonly activities: ActivityRepository,
    private readonly notifications: NotificationRepository,
    private readonly unread: UnreadCountRepository,
    private readonly comments: CommentCopyRepository,
  ) {}

  @EventPattern(userDeleted.type)
  async deleted(@Payload() envelope: EventEnvelope<UserDeletedPayload>, @Ctx() context: EventContext): Promise<void> {
    const { id } = envelope.payload;
    await this.notifications.removeOfUser(context.manager, id);
    await this.unread.remove(context.manager, id);
    await this.activities.removeOfUser(context.manager, id);
    await this.comments.removeLikesBy(context.manager, id);
    await this.senders.remove(context.manager, id);
  }
}
