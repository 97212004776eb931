import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { type EventEnvelope, postAnnounced, type PostAnnouncedPayload } from '@shiliu/contracts';
import type { EventContext } from '@shiliu/platform';
import { Indexer } from '../engine/indexer.service';
import { ViewerStateRepository } from '../viewers/viewer-state.repository';
import { NoteCounts } from './note-counts';
import { PostRepository } from './post.repository';

/** A backfill: the note, its counts and who likes and collects it as of the announcement, none of it over anything newer. */
@Controller()
export class BackfillNoteWhenPostIsAnnounced {
  constructor(
    private readonly posts: PostRepository,
    private readonly viewers: ViewerStateRepository,
    private readonly counts: NoteCounts,
    private readonly indexer: Indexer,
  ) {}

  @EventPattern(postAnnounced.type)
  async announced(@Payload() envelope: EventEnvelope<PostAnnouncedPayload>, @Ctx() context: EventContext): Promise<void> {
    const { post, like_count, collect_count, comment_count, liked_by, collected_by } = envelope.payload;
    const at = envelope.occurredAt;
    if (liked_by !== undefined) await this.viewers.announce(context.manager, 'like', post.id, liked_by, at);
    if (collected_by !== undefined) await this.viewers.announce(context.manager, 'collect', post.id, collected_by, at);
    await this.counts.set(context.manager, 'like_count', post.id, post.author_id, like_count, at);
    await this.counts.set(context.manager, 'collect_count', post.id, post.author_id, collect_count, at);
    if (comment_count !== undefined) await this.counts.set(context.manager, 'comment_count', post.id, post.author_id, comment_count, at);
    await this.indexer.post(context.manager, await this.posts.published(context.manager, post, at));
  }
}
