import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import {
  commentCreated,
  type CommentCreatedPayload,
  commentDeleted,
  type CommentDeletedPayload,
  commentLiked,
  type CommentReactionPayload,
  commentUnliked,
  commentUpdated,
  type CommentUpdatedPayload,
  type EventEnvelope,
  userMentioned,
  type UserMentionedPayload,
} from '@shiliu/contracts';
import type { EventContext } from '@shiliu/platform';
import { ActivityRepository } from '../activities/activity.repository';
import { NotificationType } from '../notifications/notification-type';
import { NotificationRepository } from '../notifications/notification.repository';
import { CommentCopyRepository } from './comment-copy.repository';

/**
 * Comments, replies, comment likes and mentions. A comment's mentions travel after the comment on its topic and key,
 * so the comment or reply notification is there first and a mention of the same person adds nothing to it.
 */
@Controller()
export class CommentEventsHandler {
  constructor(
    private readonly comments: CommentCopyRepository,
    private readonly notifications: NotificationRepository,
    private readonly activities: ActivityRepository,
  ) {}

  /** A reply notifies the user answered; a top-level comment the note's author. */
  @EventPattern(commentCreated.type)
  async created(@Payload() envelope: EventEnvelope<CommentCreatedPayload>, @Ctx() context: EventContext): Promise<void> {
    const { comment } = envelope.payload;
    await this.comments.created(context.manager, comment);
    await this.activities.add(context.manager, {
      type: 'comment_publish',
      userId: comment.author_id,
      targetId: comment.id,
      postId: comment.post_id,
      content: comment.content_text,
      createdAt: envelope.occurredAt,
    });
    const reply = comment.reply_to_user_id !== null;
    await this.notifications.add(context.manager, {
      userId: reply ? comment.reply_to_user_id! : comment.post_author_id,
      senderId: comment.author_id,
      type: reply ? NotificationType.replyComment : NotificationType.commentPost,
      targetId: comment.id,
      postId: comment.post_id,
      commentId: comment.id,
      replyToCommentId: comment.reply_to_comment_id,
      createdAt: envelope.occurredAt,
    });
  }

  /** An edited comment: the quotes and the monitor show its new text; nobody is notified again. */
  @EventPattern(commentUpdated.type)
  async updated(@Payload() envelope: EventEnvelope<CommentUpdatedPayload>, @Ctx() context: EventContext): Promise<void> {
    const { comment } = envelope.payload;
    await this.comments.created(context.manager, comment);
    await this.activities.editComment(context.manager, comment.id, comment.content_text);
  }

  @EventPattern(commentDeleted.type)
  async deleted(@Payload() envelope: EventEnvelope<CommentDeletedPayload>, @Ctx() context: EventContext): Promise<void> {
    const { id, post_id } = envelope.payload;
    await this.notifications.removeOfComment(context.manager, id);
    await this.activities.removeOfComment(context.manager, id);
    await this.comments.remove(context.manager, id, post_id);
  }

  @EventPattern(commentLiked.type)
  async liked(@Payload() envelope: EventEnvelope<CommentReactionPayload>, @Ctx() context: EventContext): Promise<void> {
    const { comment_id, post_id, comment_author_id, user_id, count } = envelope.payload;
    await this.comments.liked(context.manager, comment_id, post_id, user_id, true, count, envelope.occurredAt);
    await this.notifications.add(context.manager, {
      userId: comment_author_id,
      senderId: user_id,
      type: NotificationType.likeComment,
      targetId: comment_id,
      postId: post_id,
      commentId: comment_id,
      createdAt: envelope.occurredAt,
    });
  }

  @EventPattern(commentUnliked.type)
  async unliked(@Payload() envelope: EventEnvelope<CommentReactionPayload>, @Ctx() context: EventContext): Promise<void> {
    const { comment_id, post_id, comment_author_id, user_id, count } = envelope.payload;
    await this.comments.liked(context.manager, comment_id, post_id, user_id, false, count, envelope.occurredAt);
    await this.notifications.withdraw(context.manager, { userId: comment_author_id, senderId: user_id, type: NotificationType.likeComment, targetId: comment_id });
  }

  /** A mention in a note (type 8) or in a comment (type 7). */
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
