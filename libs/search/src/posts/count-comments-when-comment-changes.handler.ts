import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import {
  commentCreated,
  type CommentCreatedPayload,
  commentDeleted,
  type CommentDeletedPayload,
  type EventEnvelope,
} from '@shiliu/contracts';
import type { EventContext } from '@shiliu/platform';
import { NoteCounts } from './note-counts';

/** A note's comment count as comment events carry it (older events carry none). */
@Controller()
export class CountCommentsWhenCommentChanges {
  constructor(private readonly counts: NoteCounts) {}

  @EventPattern(commentCreated.type)
  async commented(@Payload() envelope: EventEnvelope<CommentCreatedPayload>, @Ctx() context: EventContext): Promise<void> {
    const { comment, post_comment_count } = envelope.payload;
    if (post_comment_count === undefined) return;
    await this.counts.set(context.manager, 'comment_count', comment.post_id, comment.post_author_id, post_comment_count, envelope.occurredAt);
  }

  @EventPattern(commentDeleted.type)
  async uncommented(@Payload() envelope: EventEnvelope<CommentDeletedPayload>, @Ctx() context: EventContext): Promise<void> {
    const { post_id, post_author_id, post_comment_count } = envelope.payload;
    if (post_comment_count === undefined) return;
    await this.counts.set(context.manager, 'comment_count', post_id, post_author_id, post_comment_count, envelope.occurredAt);
  }
}
