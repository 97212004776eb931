import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { adminPage, type AdminListQuery, type AdminPage, messageForStatus, type Principal } from '@shiliu/platform';
import { DataSource } from 'typeorm';
import { CommentRepository } from '../comments/comment.repository';
import { CommentService } from '../comments/comment.service';
import { PostRepository } from '../posts/post.repository';
import { PostService } from '../posts/post.service';
import type { AdminCreateCommentDto, AdminCreatePostDto, AdminUpdateCommentDto, AdminUpdatePostDto } from './admin-content.dto';
import { type AdminCommentRow, AdminContentRepository, type AdminPostRow } from './admin-content.repository';

/** admin-and-startup.md §3 "Post", with what the edit form reads (images, tags, type, cover_url, video_url). */
export interface AdminPostView {
  id: number;
  user_id: number;
  user_display_id: string;
  nickname: string;
  title: string;
  content: string;
  category_id: number | null;
  category: string | null;
  category_title: string | null;
  type: number;
  is_draft: number;
  tags: string[];
  images: string[];
  cover_url: string | null;
  video_url: string | null;
  view_count: number;
  like_count: number;
  collect_count: number;
  comment_count: number;
  created_at: string;
}

/** admin-and-startup.md §3 "Comment". */
export interface AdminCommentView {
  id: number;
  content: string;
  user_id: number;
  user_display_id: string;
  nickname: string;
  post_id: number;
  post_title: string;
  parent_id: number | null;
  like_count: number;
  created_at: string;
}

function toPostView(row: AdminPostRow): AdminPostView {
  return {
    id: Number(row.id),
    user_id: Number(row.user_id),
    user_display_id: row.user_display_id,
    nickname: row.nickname,
    title: row.title,
    content: row.content,
    category_id: row.category_id,
    category: row.category,
    category_title: row.category_title,
    type: row.type,
    is_draft: row.is_draft ? 1 : 0,
    tags: row.tags,
    images: row.images.map((image) => image.url),
    cover_url: row.cover_url ?? row.video?.cover_url ?? null,
    video_url: row.video?.url ?? null,
    view_count: row.view_count,
    like_count: row.like_count,
    collect_count: row.collect_count,
    comment_count: row.comment_count,
    created_at: row.created_at.toISOString(),
  };
}

function toCommentView(row: AdminCommentRow): AdminCommentView {
  return {
    id: Number(row.id),
    content: row.content,
    user_id: Number(row.user_id),
    user_display_id: row.user_display_id,
    nickname: row.nickname,
    post_id: Number(row.post_id),
    post_title: row.post_title,
    parent_id: row.parent_id === null ? null : Number(row.parent_id),
    like_count: row.like_count,
    created_at: row.created_at.toISOString(),
  };
}

/**
 * The author's own operations, run for them: an administrator's change to a note or comment is the author's
 * change with the ownership check passed, so it takes the same rules, counters and events (post.updated,
 * post.deleted, comment.deleted) to the other services. The session id names no session: nothing revokes or
 * reads it on this path.
 */
function asAuthor(author: { id: string; user_id: string }): Principal {
  return { audience: 'user', id: String(author.id), userId: author.user_id, sessionId: 'admin-back-office' };
}

@Injectable()
export class AdminContentService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly lists: AdminContentRepository,
    private readonly postService: PostService,
    private readonly commentService: CommentService,
    private readonly posts: PostRepository,
    private readonly comments: CommentRepository,
  ) {}

  async postList(query: AdminListQuery): Promise<AdminPage<AdminPostView>> {
    const { rows, total } = await this.lists.posts(this.dataSource.manager, query);
    return adminPage(rows.map(toPostView), query, total);
  }

  async post(id: number): Promise<AdminPostView> {
    const row = await this.lists.post(this.dataSource.manager, id);
    if (!row) throw new NotFoundException(messageForStatus(404));
    return toPostView(row);
  }

  async createPost(form: AdminCreatePostDto): Promise<AdminPostView> {
    const author = await this.lists.author(this.dataSource.manager, form.user_id);
    if (!author) throw new NotFoundException('用户不存在');
    const created = await this.postService.create(asAuthor(author), form);
    if (form.view_count !== undefined) await this.lists.setViewCount(this.dataSource.manager, created.id, form.view_count);
    return this.post(created.id);
  }

  async updatePost(id: number, form: AdminUpdatePostDto): Promise<AdminPostView> {
    const author = await this.lists.authorOfPost(this.dataSource.manager, id);
    if (!author) throw new NotFoundException(messageForStatus(404));
    await this.postService.update(asAuthor({ id: author.author_id, user_id: author.user_id }), id, form);
    if (form.view_count !== undefined) await this.lists.setViewCount(this.dataSource.manager, id, form.view_count);
    return this.post(id);
  }

  async removePost(id: number): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const post = await this.posts.lock(manager, id);
      if (!post) throw new NotFoundException(messageForStatus(404));
      await this.postService.removeWithin(manager, post);
    });
  }

  async removePosts(ids: number[]): Promise<{ deletedCount: number }> {
    return this.dataSource.transaction(async (manager) => {
      let deletedCount = 0;
      // In id order, as every other path locks notes, so that two bulk deletions cannot deadlock.
      for (const id of [...ids].sort((a, b) => a - b)) {
        const post = await this.posts.lock(manager, id);
        if (!post) continue;
        await this.postService.removeWithin(manager, post);
        deletedCount += 1;
      }
      return { deletedCount };
    });
  }

  async commentList(query: AdminListQuery): Promise<AdminPage<AdminCommentView>> {
    const { rows, total } = await this.lists.comments(this.dataSource.manager, query);
    return adminPage(rows.map(toCommentView), query, total);
  }

  async createComment(form: AdminCreateCommentDto): Promise<AdminCommentView> {
    const author = await this.lists.author(this.dataSource.manager, form.user_id);
    if (!author) throw new NotFoundException('用户不存在');
    const created = await this.commentService.create(asAuthor(author), form);
    return toCommentView((await this.lists.comment(this.dataSource.manager, created.id))!);
  }

  /** A comment's new text under a new comment's rules; where it sits and who wrote it stay. */
  async updateComment(id: number, form: AdminUpdateCommentDto): Promise<AdminCommentView> {
    const found = await this.comments.find(this.dataSource.manager, id);
    if (!found) throw new NotFoundException(messageForStatus(404));
    if (form.post_id !== undefined && form.post_id !== Number(found.post_id)) throw new BadRequestException('评论不能移到其他笔记');
    await this.commentService.edit(id, form.content);
    return toCommentView((await this.lists.comment(this.dataSource.manager, id))!);
  }

  /** A top-level comment goes with its replies, as when its author deletes it; answers how many went. */
  async removeComment(id: number): Promise<{ deletedCount: number }> {
    const removed = await this.removeComments([id]);
    if (removed.deletedCount === 0) throw new NotFoundException(messageForStatus(404));
    return removed;
  }

  async removeComments(ids: number[]): Promise<{ deletedCount: number }> {
    let deletedCount = 0;
    for (const id of ids) {
      deletedCount += await this.dataSource.transaction(async (manager) => {
        const found = await this.comments.find(manager, id);
        if (!found) return 0;
        // The note's row before the comment's, the order a note's deletion takes them in, so the two never deadlock.
        await this.posts.lock(manager, Number(found.post_id));
        const comment = await this.comments.lock(manager, id);
        return comment ? this.commentService.removeWithin(manager, comment) : 0;
      });
    }
    return { deletedCount };
  }
}
