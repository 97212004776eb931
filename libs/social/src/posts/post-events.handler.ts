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
  type PostReactionPayload,
  type PostSnapshot,
  postUncollected,
  postUnliked,
  postUpdated,
} from '@shiliu/contracts';
import type { EventContext } from '@shiliu/platform';
import { PostRepository } from './post.repository';

/** Keeps the notes' covers and counts, and through them their authors' counters, from content's events. */
@Controller()
export class PostEventsHandler {
  constructor(private readonly posts: PostRepository) {}

  @EventPattern([postPublished.type, postUpdated.type])
  async published(@Payload() envelope: EventEnvelope<{ post: PostSnapshot }>, @Ctx() context: EventContext): Promise<void> {
    await this.posts.published(context.manager, envelope.payload.post, envelope.occurredAt);
  }

  /** A backfill: the note and its counts as of the announcement, none of it over anything newer. */
  @EventPattern(postAnnounced.type)
  async announced(@Payload() envelope: EventEnvelope<PostAnnouncedPayload>, @Ctx() context: EventContext): Promise<void> {
    const { post, like_count, collect_count } = envelope.payload;
    await this.posts.published(context.manager, post, envelope.occurredAt);
    await this.posts.likes(context.manager, post.id, post.author_id, like_count, envelope.occurredAt);
    await this.posts.collections(context.manager, post.id, post.author_id, collect_count, envelope.occurredAt);
  }

  @EventPattern(postDeleted.type)
  async deleted(@Payload() envelope: EventEnvelope<PostDeletedPayload>, @Ctx() context: EventContext): Promise<void> {
    await this.posts.deleted(context.manager, envelope.payload.id, envelope.payload.author_id);
  }

  @EventPattern([postLiked.type, postUnliked.type])
  async likes(@Payload() envelope: EventEnvelope<PostReactionPayload>, @Ctx() context: EventContext): Promise<void> {
    const { post_id, post_author_id, count } = envelope.payload;
    await this.posts.likes(context.manager, post_id, post_author_id, count, envelope.occurredAt);
  }

  @EventPattern([postCollected.type, postUncollected.type])
  async collections(@Payload() envelope: EventEnvelope<PostReactionPayload>, @Ctx() context: EventContext): Promise<void> {
    const { post_id, post_author_id, count } = envelope.payload;
    await this.posts.collections(context.manager, post_id, post_author_id, count, envelope.occurredAt);
  }
}
