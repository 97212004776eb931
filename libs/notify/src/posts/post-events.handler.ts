import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import {
  type EventEnvelope,
  postAnnounced,
  type PostAnnouncedPayload,
  postCollected,
  postDeleted,
  type PostDeletedPayload,
  postLiked,
  postPublished,
  type PostPublishedPayload,
  type PostReactionPayload,
  postUncollected,
  postUnliked,
  postUpdated,
} from '@shiliu/contracts';
import type { EventContext } from '@shiliu/platform';
import { ActivityRepository } from '../activities/activity.repository';
import { CommentCopyRepository } from '../comments/comment-copy.repository';
import { NotificationType } from '../notifications/notification-type';
import { NotificationRepository } from '../notifications/notification.repository';
import { NoteRepository } from './note.repository';

/** Notes from content's events: their covers for notifications, their publication in the activity log, likes and collections. */
@Controller()
export class PostEventsHandler {
  constructor(
    private readonly notes: NoteRepository,
    private readonly notifications: NotificationRepository,
    private readonly activities: ActivityRepository,
    private readonly comments: CommentCopyRepository,
  ) {}

  @EventPattern(postPublished.type)
  async published(@Payload() envelope: EventEnvelope<PostPublishedPayload>, @Ctx() context: EventContext): Promise<void> {
    const { post } = envelope.payload;
    await this.notes.upsert(context.manager, post, envelope.occurredAt);
    await this.activities.add(context.manager, { type: 'post_publish', userId: post.author_id, targetId: post.id, postId: post.id, content: post.title, createdAt: envelope.occurredAt });
  }

  @EventPattern([postUpdated.type, postAnnounced.type])
  async updated(@Payload() envelope: EventEnvelope<PostPublishedPayload | PostAnnouncedPayload>, @Ctx() context: EventContext): Promise<void> {
    await this.notes.upsert(context.manager, envelope.payload.post, envelope.occurredAt);
  }

  /** The note's notifications (its likes, collections, comments, mentions) and its activities go with it. */
  @EventPattern(postDeleted.type)
  async deleted(@Payload() envelope: EventEnvelope<PostDeletedPayload>, @Ctx() context: EventContext): Promise<void> {
    const { id, author_id } = envelope.payload;
    await this.notifications.removeOfPost(context.manager, id);
    await this.activities.removeOfPost(context.manager, id);
    await this.comments.removeOfPost(context.manager, id);
    await this.notes.remove(context.manager, id, author_id);
  }

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

  @EventPattern([postUnliked.type, postUncollected.type])
  async undone(@Payload() envelope: EventEnvelope<PostReactionPayload>, @Ctx() context: EventContext): Promise<void> {
    const { post_id, post_author_id, user_id } = envelope.payload;
    const type = envelope.type === postUnliked.type ? NotificationType.likePost : NotificationType.collectPost;
    await this.notifications.withdraw(context.manager, { userId: post_author_id, senderId: user_id, type, targetId: post_id });
  }
}
