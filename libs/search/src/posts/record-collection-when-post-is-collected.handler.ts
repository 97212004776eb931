import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { type EventEnvelope, postCollected, type PostReactionPayload, postUncollected } from '@shiliu/contracts';
import type { EventContext } from '@shiliu/platform';
import { ViewerStateRepository } from '../viewers/viewer-state.repository';
import { NoteCounts } from './note-counts';

/** Who collects a note (each viewer's collected state) and its collection count. */
@Controller()
export class RecordCollectionWhenPostIsCollected {
  constructor(private readonly viewers: ViewerStateRepository, private readonly counts: NoteCounts) {}

  @EventPattern([postCollected.type, postUncollected.type])
  async collections(@Payload() envelope: EventEnvelope<PostReactionPayload>, @Ctx() context: EventContext): Promise<void> {
    const { post_id, post_author_id, user_id, count } = envelope.payload;
    await this.viewers.react(context.manager, 'collect', post_id, user_id, envelope.type === postCollected.type, envelope.occurredAt);
    await this.counts.set(context.manager, 'collect_count', post_id, post_author_id, count, envelope.occurredAt);
  }
}
