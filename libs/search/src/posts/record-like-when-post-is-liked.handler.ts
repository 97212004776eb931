import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { type EventEnvelope, postLiked, type PostReactionPayload, postUnliked } from '@shiliu/contracts';
import type { EventContext } from '@shiliu/platform';
import { ViewerStateRepository } from '../viewers/viewer-state.repository';
import { NoteCounts } from './note-counts';

/** Who likes a note (each viewer's liked state) and its like count, which ranks it. */
@Controller()
export class RecordLikeWhenPostIsLiked {
  constructor(private readonly viewers: ViewerStateRepository, private readonly counts: NoteCounts) {}

  @EventPattern([postLiked.type, postUnliked.type])
  async likes(@Payload() envelope: EventEnvelope<PostReactionPayload>, @Ctx() context: EventContext): Promise<void> {
    const { post_id, post_author_id, user_id, count } = envelope.payload;
    await this.viewers.react(context.manager, 'like', post_id, user_id, envelope.type === postLiked.type, envelope.occurredAt);
    await this.counts.set(context.manager, 'like_count', post_id, post_author_id, count, envelope.occurredAt);
  }
}
