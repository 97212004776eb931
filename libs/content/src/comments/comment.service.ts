import { ForbiddenException, Injectable } from '@nestjs/common';
import { commentCreated, commentDeleted, commentUpdated, userMentionedInComment } from '@shiliu/contracts';
import { BannedWords, offsetOf, Outbox, type Pagination, pagination, type Principal } from '@shiliu/platform';
import { DataSource, type EntityManager } from 'typeorm';
import { AuthorRepository } from '../authors/author.repository';
import { PostRepository } from '../posts/post.repository';
import { MediaObjects } from '../shared/media-objects';
import { type CachedCommentPage, ReadCache } from '../shared/read-cache';
import { embeddedImages, findMentions, resolveMentions, sanitizeRichText, textLength, toPlainText } from '../shared/rich-text';
import { badRequest, notFound } from '../shared/sql';
import type { CreateCommentDto } from './comment.dto';
import { CommentRepository, type CommentRecord, type CommentRow } from './comment.repository';
import { toCommentView, type CommentView } from './comment.view';

export const COMMENT_MAX = 1000;
export const COMMENT_IMAGES_MAX = 9;

@Injectable()
export class CommentService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly comments: CommentRepository,
    private readonly authors: AuthorRepository,
    private readonly media: MediaObjects,
    private readonly outbox: Outbox,
    private readonly posts: PostRepository,
    private readonly cache: ReadCache,
    private readonly bannedWords: BannedWords,
  ) {}

  async list(postId: number, viewerId: string | null, page: number, limit: number, sort: 'asc' | 'desc'): Promise<{ comments: CommentView[]; pagination: Pagination }> {
    const load = async (): Promise<CachedCommentPage> => {
      await this.publishedPost(this.dataSource.manager, postId);
      const { rows, total } = await this.comments.topLevel(postId, null, sort, limit, offsetOf(page, limit));
      return { rows, replies: await this.comments.firstReplies(rows.map((row) => Number(row.id)), null), total };
    };
    // The first page is what every reader of the note opens: it is shared, and the viewer's likes laid over it.
    const shared = page === 1 ? await this.cache.through(this.cache.comments, String(postId), `${postId}|${sort}|${limit}`, load) : await load();
    const { rows, replies, total } = shared!;
    const liked = viewerId === null ? new Set<string>() : await this.comments.likedBy(viewerId, [...rows, ...replies].map((row) => Number(row.id)));
    const view = (row: CommentRow) => toCommentView({ ...row, liked: liked.has(String(row.id)) });
    const comments = rows.map((row) => ({
      ...view(row),
      replies: replies.filter((reply) => String(reply.parent_id) === String(row.id)).map(view),
    }));
    return { comments, pagination: pagination(page, limit, total) };
  }

  async replies(commentId: number, viewerId: string | null, page: number, limit: number): Promise<{ comments: CommentView[]; pagination: Pagination }> {
    if (!(await this.comments.find(this.dataSource.manager, commentId))) throw notFound();
    // Only the direct children: a reply has none in a two-level thread, so a client walking replies recursively stops.
    const { rows, total } = await this.comments.replies(commentId, viewerId, limit, offsetOf(page, limit));
    return { comments: rows.map(toCommentView), pagination: pagination(page, limit, total) };
  }

  /** `at` lets the demo seed date its comments in the past; requests always create them now. */
  async create(principal: Principal, form: CreateCommentDto, at: Date | null = null): Promise<CommentView> {
    const id = await this.dataSource.transaction(async (manager) => {
      await this.authors.requireKnown(manager, principal);
      // The note's row first, as its deletion and a comment's take it: a deletion under way is waited for, and
      // what it took away is then missing here (404) rather than a parent the reply would point at in vain.
      const post = await this.publishedPost(manager, form.post_id, true);
      let parentId: number | null = null;
      let replyTo: CommentRecord | null = null;
      if (form.parent_id !== undefined) {
        replyTo = await this.comments.find(manager, form.parent_id);
        if (!replyTo || Number(replyTo.post_id) !== form.post_id) throw notFound();
        parentId = Number(replyTo.parent_id ?? replyTo.id);
      }

      const { content, contentText, images, mentionIds } = await this.prepare(manager, form.content ?? '');

      const comment = await this.comments.insert(
        manager,
        {
          postId: form.post_id,
          authorId: principal.id,
          parentId,
          replyToCommentId: replyTo ? Number(replyTo.id) : null,
          replyToUserId: replyTo ? String(replyTo.author_id) : null,
          content,
          contentText,
          images,
        },
        at,
      );
      const commentId = Number(comment.id);
      const commentCount = await this.comments.adjustCounts(manager, String(form.post_id), 1, parentId === null ? null : String(parentId), 1);
      await this.comments.replaceMentions(manager, commentId, mentionIds);
      await this.outbox.add(manager, commentCreated, {
        comment: {
          id: commentId,
          post_id: form.post_id,
          post_author_id: Number(post.author_id),
          author_id: Number(principal.id),
          parent_id: parentId,
          reply_to_comment_id: replyTo ? Number(replyTo.id) : null,
          reply_to_user_id: replyTo ? Number(replyTo.author_id) : null,
          content_text: contentText,
          images,
          created_at: comment.created_at.toISOString(),
        },
        post_comment_count: commentCount,
      });
      await this.mention(manager, form.post_id, commentId, principal.id, mentionIds);
      return commentId;
    });
    // Its parent's deletion may have taken it between the commit and this read.
    const row = await this.comments.findRow(id, principal.id);
    if (!row) throw notFound();
    return { ...toCommentView(row), replies: [] };
  }

  /**
   * A new text for a comment (the back office's edit), under the rules of a new one: sanitised, mentions resolved,
   * text or an image required, the same limits. Users it newly mentions are told as on a new comment; the other
   * services learn the new text from comment.updated.
   */
  async edit(id: number, raw: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const found = await this.comments.find(manager, id);
      if (!found) throw notFound();
      // The note's row before the comment's, the order a note's deletion takes them in, so the two never deadlock.
      const post = await this.posts.lock(manager, Number(found.post_id));
      const comment = await this.comments.lock(manager, id);
      if (!post || !comment) throw notFound();
      const { content, contentText, images, mentionIds } = await this.prepare(manager, raw);
      const before = new Set(await this.comments.mentionsWithin(manager, id));
      await this.comments.updateContent(manager, id, content, contentText, images);
      await this.comments.replaceMentions(manager, id, mentionIds);
      await this.outbox.add(manager, commentUpdated, {
        comment: {
          id,
          post_id: Number(comment.post_id),
          post_author_id: Number(post.author_id),
          author_id: Number(comment.author_id),
          parent_id: comment.parent_id === null ? null : Number(comment.parent_id),
          reply_to_comment_id: comment.reply_to_comment_id === null ? null : Number(comment.reply_to_comment_id),
          reply_to_user_id: comment.reply_to_user_id === null ? null : Number(comment.reply_to_user_id),
          content_text: contentText,
          images,
          created_at: comment.created_at.toISOString(),
        },
      });
      await this.mention(manager, Number(comment.post_id), id, String(comment.author_id), mentionIds.filter((userId) => !before.has(userId)));
    });
  }

  /** A comment's text as stored: sanitised, mentions of existing users resolved, within the limits (400 otherwise). */
  private async prepare(manager: EntityManager, raw: string): Promise<{ content: string; contentText: string; images: string[]; mentionIds: string[] }> {
    const sanitized = sanitizeRichText(raw);
    const mentioned = await this.authors.findByUserIds(manager, [...new Set(findMentions(sanitized).map((mention) => mention.userId))]);
    const { text: content, userIds } = resolveMentions(sanitized, new Set(mentioned.map((author) => author.user_id)));
    const mentionIds = userIds.map((userId) => mentioned.find((author) => author.user_id === userId)!.id).map(String);
    const contentText = toPlainText(content);
    const images = embeddedImages(content);
    if (!contentText && images.length === 0) throw badRequest('请输入评论内容或上传图片');
    if (textLength(contentText) > COMMENT_MAX) throw badRequest(`评论内容不能超过${COMMENT_MAX}个字符`);
    this.bannedWords.check(contentText);
    if (images.length > COMMENT_IMAGES_MAX) throw badRequest(`最多只能上传${COMMENT_IMAGES_MAX}张图片`);
    if (!(await this.media.allExist(images))) throw badRequest('图片不存在，请重新上传');
    return { content, contentText, images, mentionIds };
  }

  private async mention(manager: EntityManager, postId: number, commentId: number, authorId: string, userIds: string[]): Promise<void> {
    for (const userId of userIds) {
      if (userId === authorId) continue;
      await this.outbox.add(manager, userMentionedInComment, {
        source: 'comment',
        post_id: postId,
        comment_id: commentId,
        mentioned_user_id: Number(userId),
        author_id: Number(authorId),
      });
    }
  }

  async remove(principal: Principal, id: number): Promise<{ deletedCount: number }> {
    return this.dataSource.transaction(async (manager) => {
      const found = await this.comments.find(manager, id);
      if (!found) throw notFound();
      // The note's row before the comment's, the order a note's deletion takes them in, so the two never deadlock.
      await this.posts.lock(manager, Number(found.post_id));
      const comment = await this.comments.lock(manager, id);
      if (!comment) throw notFound();
      if (String(comment.author_id) !== principal.id) {
        throw new ForbiddenException(comment.parent_id === null ? '只能删除自己的评论' : '只能删除自己的回复');
      }
      return { deletedCount: await this.removeWithin(manager, comment) };
    });
  }

  /** Deletes a comment (a top-level one with its replies) in the caller's transaction; answers how many went. */
  async removeWithin(manager: EntityManager, comment: CommentRecord): Promise<number> {
    const post = await this.posts.lock(manager, Number(comment.post_id));
    if (!post) throw notFound();
    const gone = await this.comments.withReplies(manager, comment);
    await this.comments.remove(manager, gone.map((each) => Number(each.id)));
    const commentCount = await this.comments.adjustCounts(manager, comment.post_id, -gone.length, comment.parent_id, -1);
    for (const each of gone) {
      await this.outbox.add(manager, commentDeleted, {
        id: Number(each.id),
        post_id: Number(each.post_id),
        post_author_id: Number(post.author_id),
        author_id: Number(each.author_id),
        parent_id: each.parent_id === null ? null : Number(each.parent_id),
        like_count: each.like_count,
        post_comment_count: commentCount,
      });
    }
    return gone.length;
  }

  private async publishedPost(manager: EntityManager, postId: number, lock = false): Promise<{ author_id: string }> {
    const post = lock ? await this.posts.lock(manager, postId) : await this.posts.find(manager, postId);
    if (!post || post.is_draft) throw notFound();
    return post;
  }
}
