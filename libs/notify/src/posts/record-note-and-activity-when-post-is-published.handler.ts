import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { type EventEnvelope, postPublished, type PostPublishedPayload } from '@shiliu/contracts';
import type { EventContext } from '@shiliu/platform';
import { ActivityRepository } from '../activities/activity.repository';
import { NoteRepository } from './note.repository';

/** A published note's copy (its cover for notifications), and its publication in the activity log. */
// One class for both: two handlers of one event type would run side by side in its transaction, not in this order.
@Controller()
export class RecordNoteAndActivityWhenPostIsPublished {
  constructor(private readonly notes: NoteRepository, private readonly activities: ActivityRepository) {}

  @EventPattern(postPublished.type)
  async published(@Payload() envelope: EventEnvelope<PostPublishedPayload>, @Ctx() context: EventContext): Promise<void> {
    const { post } = envelope.payload;
    await this.notes.upsert(context.manager, post, envelope.occurredAt);
    await this.activities.add(context.manager, { type: 'post_publish', userId: post.author_id, targetId: post.id, postId: post.id, content: post.title, createdAt: envelope.occurredAt });
  }
}
