import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { CommentRepository } from '../comments/comment.repository';
import { CommentService } from '../comments/comment.service';
import { FollowGraphRepository } from '../follows/follow-graph.repository';
import { PostRepository } from '../posts/post.repository';
import { PostService } from '../posts/post.service';
import { ReactionRepository } from '../reactions/reaction.repository';
import { ReactionService } from '../reactions/reaction.service';
import { AuthorRepository } from './author.repository';

/**
 * What a deleted account leaves behind in content: its notes (with everything on them), its comments elsewhere,
 * its likes and collections, its follows. Each goes the same way as when the user removes it, so every counter drops by
 * exactly what went and every consumer hears of each removal through the usual events.
 */
@Injectable()
export class AccountRemovalService {
  constructor(
    private readonly authors: AuthorRepository,
    private readonly posts: PostRepository,
    private readonly postService: PostService,
    private readonly comments: CommentRepository,
    private readonly commentService: CommentService,
    private readonly reactionService: ReactionService,
    private readonly reactions: ReactionRepository,
    private readonly graph: FollowGraphRepository,
  ) {}

  async remove(manager: EntityManager, userId: number): Promise<void> {
    const id = String(userId);
    for (const postId of await this.posts.idsByAuthor(manager, id)) {
      const post = await this.posts.lock(manager, postId);
      if (post) await this.postService.removeWithin(manager, post);
    }
    for (const comment of await this.comments.byAuthor(manager, id)) {
      // The note's row before the comment's, the order a note's deletion and a new reply take them in.
      await this.posts.lock(manager, Number(comment.post_id));
      // A reply may already have gone with its top-level comment.
      const current = await this.comments.lock(manager, Number(comment.id));
      if (current) await this.commentService.removeWithin(manager, current);
    }
    for (const like of await this.reactions.likesOf(manager, id)) {
      if (like.target_type === 1) await this.reactionService.unlikePostWithin(manager, id, Number(like.target_id));
      else await this.reactionService.unlikeCommentWithin(manager, id, Number(like.target_id));
    }
    for (const postId of await this.reactions.collectionsOf(manager, id)) await this.reactionService.uncollectWithin(manager, id, postId);
    await this.posts.removeMentionsOf(manager, id);
    await this.comments.removeMentionsOf(manager, id);
    await this.graph.forgetUser(manager, userId);
    await this.authors.remove(manager, userId);
  }
}
