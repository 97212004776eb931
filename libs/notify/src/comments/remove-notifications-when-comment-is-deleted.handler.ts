import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { commentDeleted, type CommentDeletedPayload, type EventEnvelope } from '@shiliu/contracts';
import type { EventContext } from '@shiliu/platform';
import { ActivityRepository } from '../activities/activity.repository';
import { NotificationRepository } from '../notifications/notification.repository';
import { CommentCopyRepository } from './comment-copy.repository';

/** A deleted comment's notifications, its activity and its copy go. */
@Controller()
export class RemoveNotificationsWhenCommentIsDeleted {
  constructor(
    private readonly comments: CommentCopyRepository,
    private readonly notifications: NotificationRepository,
    private readonly activities: ActivityRepository,
  ) {}

  @EventPattern(commentDeleted.type)
  async deleted(@Payload() envelope: EventEnvelope<CommentDeletedPayload>, @Ctx() context: EventContext): Promise<void> {
    const { id, post_id } = envelope.payload;
    await this.notifications.removeOfComment(context.manager, id);
    await this.activities.removeOfComment(context.manager, id);
    await this.comments.remove(context.manager, id, post_id);
  }
}
