import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { type EventEnvelope, postDeleted, type PostDeletedPayload } from '@shiliu/contracts';
import type { EventContext } from '@shiliu/platform';
import { ActivityRepository } from '../activities/activity.repository';
import { CommentCopyRepository } from '../comments/comment-copy.repository';
import { NotificationRepository } from '../notifications/notification.repository';
import { NoteRepository } from './note.repository';

/** A deleted note's notifications (its likes, collections, comments, mentions) and its activities go with it. */
@Controller()
export class RemoveNotificationsWhenPostIsDeleted {
  constructor(
    private readonly notes: NoteRepository,
    private readonly notifications: NotificationRepository,
    private readonly activities: ActivityRepository,
    private readonly comments: CommentCopyRepository,
  ) {}

  @EventPattern(postDeleted.type)
  async deleted(@Payload() envelope: EventEnvelope<PostDeletedPayload>, @Ctx() context: EventContext): Promise<void> {
    const { id, author_id } = envelope.payload;
    await this.notifications.removeOfPost(context.manager, id);
    await this.activities.removeOfPost(context.manager, id);
    await this.comments.removeOfPost(context.manager, id);
    await this.notes.remove(context.manager, id, author_id);
  }
}
