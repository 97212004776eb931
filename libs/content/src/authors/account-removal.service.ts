import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { CommentRepository } from '../comments/comment.repository';
import { CommentService } from '../comments/comment.service';
import { PostRepository } from '../posts/post.repository';
import { PostService } from '../posts/post.service';
import { ReactionService } from '../reactions/reaction.service';
import { AuthorRepository } from './author.repository';

/**
 * What a deleted account leaves behind in content: its notes (with everything on them), its comments elsewhere,
 * its likes and collections. Each goes the same way as when the user removes it, so every counter drops by
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
    private readonly reactions: ReactionService,
  ) {}

  async remove(manager: EntityManager, userId: number): Promise<void> {
    const id = String(userId);
    for (const postId of await this.posts.idsByAuthor(manager, id)) {
      const post = await this.posts.lock(manager, postId);
      if (post) await this.postService.removeWithin(manager, post);
    }
    for (const comment of await this.comments.byAuthor(manager, id)) {
      // A reply may already have gone with its top-level comment.
      const current = await this.comments.lock(manager, Number(comment.id));
      if (current) await this.commentService.removeWithin(manager, current);
    }
    const likes: { target_type: number; target_id: string }[] = await manager.query(`SELECT "target_type", "target_id" FROM "likes" WHERE "user_id" = $1 ORDER BY "id"`, [id]);
    for (const like of likes) {
      if (like.target_type === 1) await this.reactions.unlikePostWithin(manager, id, Number(like.target_id));
      else await this.reactions.unlikeCommentWithin(manager, id, Number(like.target_id));
    }
    const collections: { post_id: string }[] = await manager.query(`SELECT "post_id" FROM "collections" WHERE "user_id" = $1 ORDER BY "id"`, [id]);
    for (const collection of collections) await this.reactions.uncollectWithin(manager, id, Number(collection.post_id));
    await manager.query(`DELETE FROM "post_mentions" WHERE "user_id" = $1`, [id]);
    await manager.query(`DELETE FROM "comment_mentions" WHERE "user_id" = $1`, [id]);
    await this.authors.remove(manager, userId);
  }
}
