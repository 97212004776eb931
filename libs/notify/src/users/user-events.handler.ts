import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import {
  type EventEnvelope,
  userAnnounced,
  type UserAnnouncedPayload,
  userDeleted,
  type UserDeletedPayload,
  userRegistered,
  type UserRegisteredPayload,
  userUpdated,
  type UserUpdatedPayload,
  userVerified,
  type UserVerifiedPayload,
} from '@shiliu/contracts';
import type { EventContext } from '@shiliu/platform';
import { ActivityRepository } from '../activities/activity.repository';
import { CommentCopyRepository } from '../comments/comment-copy.repository';
import { NotificationRepository } from '../notifications/notification.repository';
import { UnreadCountRepository } from '../notifications/unread-count.repository';
import { SenderRepository } from './sender.repository';

/** Sender snapshots from auth's events, the registration in the activity log, and a deleted account's clean-up. */
@Controller()
export class UserEventsHandler {
  constructor(
    private readonly senders: SenderRepository,
    private readonly activities: ActivityRepository,
    private readonly notifications: NotificationRepository,
    private readonly unread: UnreadCountRepository,
    private readonly comments: CommentCopyRepository,
  ) {}

  @EventPattern(userRegistered.type)
  async registered(@Payload() envelope: EventEnvelope<UserRegisteredPayload>, @Ctx() context: EventContext): Promise<void> {
    const { user } = envelope.payload;
    await this.senders.upsert(context.manager, user, envelope.occurredAt);
    await this.activities.add(context.manager, { type: 'user_register', userId: user.id, targetId: user.id, postId: null, content: user.bio, createdAt: envelope.occurredAt });
  }

  @EventPattern([userUpdated.type, userAnnounced.type])
  async upsert(@Payload() envelope: EventEnvelope<UserUpdatedPayload | UserAnnouncedPayload>, @Ctx() context: EventContext): Promise<void> {
    await this.senders.upsert(context.manager, envelope.payload.user, envelope.occurredAt);
  }

  @EventPattern(userVerified.type)
  async verified(@Payload() envelope: EventEnvelope<UserVerifiedPayload>, @Ctx() context: EventContext): Promise<void> {
    await this.senders.setVerified(context.manager, envelope.payload.id, envelope.payload.verified, envelope.occurredAt);
  }

  /** Everything the account sent or received goes, and it leaves the activity log. */
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
