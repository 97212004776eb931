import { Injectable } from '@nestjs/common';
import { commentLiked, commentUnliked, postCollected, postLiked, postUncollected, postUnliked } from '@shiliu/contracts';
import { Outbox } from '@shiliu/platform';
import { DataSource, type EntityManager } from 'typeorm';
import { AuthorRepository } from '../authors/author.repository';
import { isForeignKeyViolation, notFound } from '../shared/sql';
import { type Counted, ReactionRepository } from './reaction.repository';

export interface LikeState {
  liked: boolean;
  likeCount: number;
}

/** Who likes what: a note (1) or a comment (2). */
export interface LikeKey {
  userId: string;
  targetType: 1 | 2;
  targetId: number;
}

export interface CollectState {
  collected: boolean;
  collectCount: number;
}

/**
 * Likes and collections. The unique key on (user, target) decides whether a request changes anything, and the
 * counter moves in the same transaction only when it did: liking twice counts once, unliking what was not liked
 * changes nothing, and concurrent requests serialise on the target's row, so counts equal the rows that remain.
 */
@Injectable()
export class ReactionService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: Outbox,
    private readonly authors: AuthorRepository,
    private readonly reactions: ReactionRepository,
  ) {}

  likePost(userId: string, postId: number): Promise<LikeState> {
    return this.asKnownUser(userId, (manager) => this.likePostWithin(manager, userId, postId));
  }

  /** A reaction's transaction, refused (401) for a user content has not learned of or has removed. */
  private async asKnownUser<T>(userId: string, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    await this.authors.awaitKnown(userId);
    return this.dataSource.transaction(async (manager) => {
      await this.authors.requireKnown(manager, userId);
      return work(manager);
    });
  }

  async likePostWithin(manager: EntityManager, userId: string, postId: number): Promise<LikeState> {
    if (!(await this.reactions.addLike(manager, userId, 1, postId))) return { liked: true, likeCount: (await this.currentPost(manager, postId, 'like_count')).count };
    const row = await this.reactions.movePostCounter(manager, postId, 'like_count', 1, true);
    // Nothing to like: throwing rolls the inserted row back with the transaction.
    if (!row) throw notFound();
    await this.outbox.add(manager, postLiked, { post_id: postId, post_author_id: Number(row.author_id), user_id: Number(userId), count: row.count });
    return { liked: true, likeCount: row.count };
  }

  unlikePost(userId: string, postId: number): Promise<LikeState> {
    return this.asKnownUser(userId, async (manager) => {
      const current = await this.unlikePostWithin(manager, userId, postId);
      return { liked: false, likeCount: current ?? (await this.currentPost(manager, postId, 'like_count')).count };
    });
  }

  /** Answers the new count when a like was removed, null when there was none. */
  async unlikePostWithin(manager: EntityManager, userId: string, postId: number): Promise<number | null> {
    if (!(await this.reactions.removeLike(manager, userId, 1, postId))) return null;
    const row = await this.reactions.movePostCounter(manager, postId, 'like_count', -1);
    if (!row) throw notFound();
    await this.outbox.add(manager, postUnliked, { post_id: postId, post_author_id: Number(row.author_id), user_id: Number(userId), count: row.count });
    return row.count;
  }

  likeComment(userId: string, commentId: number): Promise<LikeState> {
    return this.asKnownUser(userId, (manager) => this.likeCommentWithin(manager, userId, commentId));
  }

  async likeCommentWithin(manager: EntityManager, userId: string, commentId: number): Promise<LikeState> {
    if (!(await this.reactions.addLike(manager, userId, 2, commentId))) return { liked: true, likeCount: (await this.currentComment(manager, commentId)).count };
    const row = await this.reactions.moveCommentLikes(manager, commentId, 1);
    if (!row) throw notFound();
    await this.outbox.add(manager, commentLiked, { comment_id: commentId, post_id: Number(row.post_id), comment_author_id: Number(row.author_id), user_id: Number(userId), count: row.count });
    return { liked: true, likeCount: row.count };
  }

  /**
   * An administrator's edit of a like: the old one taken back and the new one made in one transaction, each with
   * the counters and events of a student's tap, so a failed new target (404) leaves the old like in place.
   */
  replaceLike(old: LikeKey, next: LikeKey): Promise<void> {
    return this.asKnownUser(next.userId, async (manager) => {
      if (old.targetType === 1) await this.unlikePostWithin(manager, old.userId, old.targetId);
      else await this.unlikeCommentWithin(manager, old.userId, old.targetId);
      if (next.targetType === 1) await this.likePostWithin(manager, next.userId, next.targetId);
      else await this.likeCommentWithin(manager, next.userId, next.targetId);
    });
  }

  /** An administrator's edit of a collection, as `replaceLike`. */
  replaceCollection(old: { userId: string; postId: number }, next: { userId: string; postId: number }): Promise<void> {
    return this.asKnownUser(next.userId, async (manager) => {
      await this.uncollectWithin(manager, old.userId, old.postId);
      await this.collectWithin(manager, next.userId, next.postId);
    });
  }

  unlikeComment(userId: string, commentId: number): Promise<LikeState> {
    return this.asKnownUser(userId, async (manager) => {
      const current = await this.unlikeCommentWithin(manager, userId, commentId);
      return { liked: false, likeCount: current ?? (await this.currentComment(manager, commentId)).count };
    });
  }

  async unlikeCommentWithin(manager: EntityManager, userId: string, commentId: number): Promise<number | null> {
    if (!(await this.reactions.removeLike(manager, userId, 2, commentId))) return null;
    const row = await this.reactions.moveCommentLikes(manager, commentId, -1);
    if (!row) throw notFound();
    await this.outbox.add(manager, commentUnliked, { comment_id: commentId, post_id: Number(row.post_id), comment_author_id: Number(row.author_id), user_id: Number(userId), count: row.count });
    return row.count;
  }

  collect(userId: string, postId: number): Promise<CollectState> {
    return this.asKnownUser(userId, (manager) => this.collectWithin(manager, userId, postId));
  }

  async collectWithin(manager: EntityManager, userId: string, postId: number): Promise<CollectState> {
    await this.currentPost(manager, postId, 'collect_count');
    let inserted: boolean;
    try {
      inserted = await this.reactions.addCollection(manager, userId, postId);
    } catch (error) {
      // The note was deleted between the check and the insert.
      if (isForeignKeyViolation(error)) throw notFound();
      throw error;
    }
    if (!inserted) return { collected: true, collectCount: (await this.currentPost(manager, postId, 'collect_count')).count };
    const row = await this.reactions.movePostCounter(manager, postId, 'collect_count', 1);
    if (!row) throw notFound();
    await this.outbox.add(manager, postCollected, { post_id: postId, post_author_id: Number(row.author_id), user_id: Number(userId), count: row.count });
    return { collected: true, collectCount: row.count };
  }

  uncollect(userId: string, postId: number): Promise<CollectState> {
    return this.asKnownUser(userId, async (manager) => {
      const current = await this.uncollectWithin(manager, userId, postId);
      return { collected: false, collectCount: current ?? (await this.currentPost(manager, postId, 'collect_count')).count };
    });
  }

  async uncollectWithin(manager: EntityManager, userId: string, postId: number): Promise<number | null> {
    if (!(await this.reactions.removeCollection(manager, userId, postId))) return null;
    const row = await this.reactions.movePostCounter(manager, postId, 'collect_count', -1);
    if (!row) throw notFound();
    await this.outbox.add(manager, postUncollected, { post_id: postId, post_author_id: Number(row.author_id), user_id: Number(userId), count: row.count });
    return row.count;
  }

  /** A published note's counter; a draft or missing note is a 404. */
  private async currentPost(manager: EntityManager, postId: number, column: 'like_count' | 'collect_count'): Promise<Counted> {
    const row = await this.reactions.postCounter(manager, postId, column);
    if (!row) throw notFound();
    return row;
  }

  private async currentComment(manager: EntityManager, commentId: number): Promise<Counted> {
    const row = await this.reactions.commentLikes(manager, commentId);
    if (!row) throw notFound();
    return row;
  }
}
