import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import {
  commentCreated,
  type CommentCreatedPayload,
  commentDeleted,
  type CommentDeletedPayload,
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
import { type EventContext, newestCounts, type NewestWrites, type NoteCountAsOf } from '@shiliu/platform';
import { Indexer } from '../engine/indexer.service';
import { ViewerStateRepository } from '../viewers/viewer-state.repository';
import { type CountColumn, PostRepository } from './post.repository';

/** Indexes content's notes and their counts; drafts cause no event, so they are never indexed. */
@Controller()
export class PostEventsHandler {
  /**
   * A run's counts, the newest of each note's kept and set at the end of the run: fifty likes of one note in a run
   * set its count and index it once. Only the likes rank a note, so only they go to the engine.
   */
  private readonly counts: Record<CountColumn, NewestWrites<NoteCountAsOf>> = {
    like_count: this.gathered('like_count', true),
    collect_count: this.gathered('collect_count', false),
    comment_count: this.gathered('comment_count', false),
  };

  constructor(private readonly posts: PostRepository, private readonly viewers: ViewerStateRepository, private readonly indexer: Indexer) {}

  private gathered(column: CountColumn, ranks: boolean): NewestWrites<NoteCountAsOf> {
    return newestCounts<NoteCountAsOf>(async (manager, counts) => {
      const rows = await this.posts.counts(manager, column, counts);
      if (ranks) for (const row of rows) await this.indexer.postCounted(row);
    });
  }

  private count(context: EventContext, column: CountColumn, id: number, authorId: number, count: number, asOf: string): Promise<void> {
    return this.counts[column].set(context.manager, { id, authorId, count, asOf });
  }

  @EventPattern([postPublished.type, postUpdated.type])
  async published(@Payload() envelope: EventEnvelope<{ post: PostSnapshot }>, @Ctx() context: EventContext): Promise<void> {
    await this.indexer.post(context.manager, await this.posts.published(context.manager, envelope.payload.post, envelope.occurredAt));
  }

  /** A backfill: the note, its counts and who likes and collects it as of the announcement, none of it over anything newer. */
  @EventPattern(postAnnounced.type)
  async announced(@Payload() envelope: EventEnvelope<PostAnnouncedPayload>, @Ctx() context: EventContext): Promise<void> {
    const { post, like_count, collect_count, comment_count, liked_by, collected_by } = envelope.payload;
    const at = envelope.occurredAt;
    if (liked_by !== undefined) await this.viewers.announce(context.manager, 'like', post.id, liked_by, at);
    if (collected_by !== undefined) await this.viewers.announce(context.manager, 'collect', post.id, collected_by, at);
    await this.count(context, 'like_count', post.id, post.author_id, like_count, at);
    await this.count(context, 'collect_count', post.id, post.author_id, collect_count, at);
    if (comment_count !== undefined) await this.count(context, 'comment_count', post.id, post.author_id, comment_count, at);
    await this.indexer.post(context.manager, await this.posts.published(context.manager, post, at));
  }

  @EventPattern(postDeleted.type)
  async deleted(@Payload() envelope: EventEnvelope<PostDeletedPayload>, @Ctx() context: EventContext): Promise<void> {
    await this.viewers.forgetPost(context.manager, envelope.payload.id);
    await this.indexer.post(context.manager, await this.posts.deleted(context.manager, envelope.payload.id, envelope.payload.author_id));
  }

  @EventPattern([postLiked.type, postUnliked.type])
  async likes(@Payload() envelope: EventEnvelope<PostReactionPayload>, @Ctx() context: EventContext): Promise<void> {
    const { post_id, post_author_id, user_id, count } = envelope.payload;
    await this.viewers.react(context.manager, 'like', post_id, user_id, envelope.type === postLiked.type, envelope.occurredAt);
    await this.count(context, 'like_count', post_id, post_author_id, count, envelope.occurredAt);
  }

  @EventPattern([postCollected.type, postUncollected.type])
  async collections(@Payload() envelope: EventEnvelope<PostReactionPayload>, @Ctx() context: EventContext): Promise<void> {
    const { post_id, post_author_id, user_id, count } = envelope.payload;
    await this.viewers.react(context.manager, 'collect', post_id, user_id, envelope.type === postCollected.type, envelope.occurredAt);
    await this.count(context, 'collect_count', post_id, post_author_id, count, envelope.occurredAt);
  }

  @EventPattern(commentCreated.type)
  async commented(@Payload() envelope: EventEnvelope<CommentCreatedPayload>, @Ctx() context: EventContext): Promise<void> {
    const { comment, post_comment_count } = envelope.payload;
    if (post_comment_count === undefined) return;
    await this.count(context, 'comment_count', comment.post_id, comment.post_author_id, post_comment_count, envelope.occurredAt);
  }

  @EventPattern(commentDeleted.type)
  async uncommented(@Payload() envelope: EventEnvelope<CommentDeletedPayload>, @Ctx() context: EventContext): Promise<void> {
    const { post_id, post_author_id, post_comment_count } = envelope.payload;
    if (post_comment_count === undefined) return;
    await this.count(context, 'comment_count', post_id, post_author_id, post_comment_count, envelope.occurredAt);
  }
}
