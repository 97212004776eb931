import { Injectable, UnauthorizedException } from '@nestjs/common';
import {
  type CommentReactionPayload,
  commentLiked,
  commentUnliked,
  type EventDefinition,
  postCollected,
  postLiked,
  type PostReactionPayload,
  postUncollected,
  postUnliked,
} from '@shiliu/contracts';
import { messageForStatus, Outbox } from '@shiliu/platform';
import { DataSource, type EntityManager } from 'typeorm';
import { AuthorRepository, type Writer } from '../authors/author.repository';
import { ReadCache } from '../shared/read-cache';
import { notFound } from '../shared/sql';
import { TARGET_NOTE } from './reaction.dto';
import { type Reacted, type ReactionKind, ReactionRepository } from './reaction.repository';

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

/** Each kind's events, as it is added and taken back. */
const EVENTS = {
  'note like': [postLiked, postUnliked],
  'comment like': [commentLiked, commentUnliked],
  collection: [postCollected, postUncollected],
} as const;

/**
 * Likes and collections. The unique key on (user, target) decides whether a request changes anything, and the
 * counter moves in the same statement only when it did: liking twice counts once, unliking what was not liked
 * changes nothing, and concurrent requests serialise on the target's row, so counts equal the rows that remain.
 * A student's tap is one statement that commits on its own (ReactionRepository.react); an administrator's edit, the
 * demo seed and an account's removal run the same statement inside their transactions.
 */
@Injectable()
export class ReactionService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: Outbox,
    private readonly authors: AuthorRepository,
    private readonly reactions: ReactionRepository,
    private readonly cache: ReadCache,
  ) {}

  /** A student's like of a note (1) or a comment (2). */
  like(writer: Writer, targetType: 1 | 2, targetId: number): Promise<LikeState> {
    return targetType === TARGET_NOTE ? this.likePost(writer, targetId) : this.likeComment(writer, targetId);
  }

  unlike(writer: Writer, targetType: 1 | 2, targetId: number): Promise<LikeState> {
    return targetType === TARGET_NOTE ? this.unlikePost(writer, targetId) : this.unlikeComment(writer, targetId);
  }

  private async likePost(writer: Writer, postId: number): Promise<LikeState> {
    return { liked: true, likeCount: made(await this.tap('note like', writer, postId, true)) };
  }

  private async unlikePost(writer: Writer, postId: number): Promise<LikeState> {
    return { liked: false, likeCount: takenBack(await this.tap('note like', writer, postId, false)) };
  }

  private async likeComment(writer: Writer, commentId: number): Promise<LikeState> {
    return { liked: true, likeCount: made(await this.tap('comment like', writer, commentId, true)) };
  }

  private async unlikeComment(writer: Writer, commentId: number): Promise<LikeState> {
    return { liked: false, likeCount: takenBack(await this.tap('comment like', writer, commentId, false)) };
  }

  async collect(writer: Writer, postId: number): Promise<CollectState> {
    return { collected: true, collectCount: made(await this.tap('collection', writer, postId, true)) };
  }

  async uncollect(writer: Writer, postId: number): Promise<CollectState> {
    return { collected: false, collectCount: takenBack(await this.tap('collection', writer, postId, false)) };
  }

  /** Inside the caller's transaction (the demo seed, an administrator's edit): 404 for a missing note or a draft. */
  async likePostWithin(manager: EntityManager, userId: string, postId: number): Promise<LikeState> {
    return { liked: true, likeCount: made(await this.react(manager, 'note like', userId, postId, true, false)) };
  }

  /** Inside the caller's transaction: the new count when a like was removed, null when there was none. */
  async unlikePostWithin(manager: EntityManager, userId: string, postId: number): Promise<number | null> {
    return removed(await this.react(manager, 'note like', userId, postId, false, false));
  }

  async likeCommentWithin(manager: EntityManager, userId: string, commentId: number): Promise<LikeState> {
    return { liked: true, likeCount: made(await this.react(manager, 'comment like', userId, commentId, true, false)) };
  }

  async unlikeCommentWithin(manager: EntityManager, userId: string, commentId: number): Promise<number | null> {
    return removed(await this.react(manager, 'comment like', userId, commentId, false, false));
  }

  async collectWithin(manager: EntityManager, userId: string, postId: number): Promise<CollectState> {
    return { collected: true, collectCount: made(await this.react(manager, 'collection', userId, postId, true, false)) };
  }

  async uncollectWithin(manager: EntityManager, userId: string, postId: number): Promise<number | null> {
    return removed(await this.react(manager, 'collection', userId, postId, false, false));
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

  /** A transaction refused (401) for a user content has not learned of or has removed. */
  private async asKnownUser<T>(userId: string, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (manager) => {
      await this.authors.requireKnown(manager, { id: userId, userId: null });
      return work(manager);
    });
  }

  /**
   * A student's tap, committed as its statement ends. A student who reacts in the first moments after registering
   * may be ahead of the user.registered event: the author is learned from the token and the tap tried once more;
   * only a removed account's is refused (401).
   */
  private async tap(kind: ReactionKind, writer: Writer, targetId: number, on: boolean): Promise<Reacted> {
    let done = await this.react(this.dataSource.manager, kind, writer.id, targetId, on, true);
    if (!done.known && writer.userId !== null) {
      await this.authors.learn(this.dataSource.manager, { id: writer.id, userId: writer.userId });
      done = await this.react(this.dataSource.manager, kind, writer.id, targetId, on, true);
    }
    if (!done.known) throw new UnauthorizedException(messageForStatus(401));
    return done;
  }

  private async react(manager: EntityManager, kind: ReactionKind, userId: string, targetId: number, on: boolean, checkUser: boolean): Promise<Reacted> {
    const definition = EVENTS[kind][on ? 0 : 1] as EventDefinition<PostReactionPayload | CommentReactionPayload>;
    // The statement fills in the counter and the ids it reads from the target's row.
    const payload =
      kind === 'comment like'
        ? { comment_id: targetId, post_id: 0, comment_author_id: 0, user_id: Number(userId), count: 0 }
        : { post_id: targetId, post_author_id: 0, user_id: Number(userId), count: 0 };
    const envelope = this.outbox.envelope(definition, payload);
    const done = await this.reactions.react(manager, {
      kind,
      userId,
      targetId,
      on,
      checkUser,
      event: { id: envelope.id, topic: definition.topic, key: definition.key(payload), type: definition.type, envelope },
    });
    if (!done.changed) return done;
    this.outbox.written(manager);
    // A tap's own change reaches this process's cache now, so its answer need not wait for the notice (ReadCache.settle),
    // announced as the triggers announce it: a note's likes and collections move its hot score (`m`).
    if (!manager.queryRunner?.isTransactionActive) this.cache.apply(kind === 'comment like' ? `c${done.post_id}` : `p${targetId} m`);
    return done;
  }
}

/** The count after adding a reaction; a missing note or comment, or a draft, is a 404. */
function made(done: Reacted): number {
  if (!done.published) throw notFound();
  return done.count;
}

/** The count after taking a reaction back inside a transaction, or null when there was nothing to take back. */
function removed(done: Reacted): number | null {
  return done.changed ? done.count : null;
}

/** The count after taking a reaction back; nothing to take back from a missing note (or a draft) is a 404. */
function takenBack(done: Reacted): number {
  if (!done.found || (!done.changed && !done.published)) throw notFound();
  return done.count;
}
