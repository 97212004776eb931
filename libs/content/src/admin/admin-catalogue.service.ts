import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { postUpdated } from '@shiliu/contracts';
import { adminPage, type AdminListQuery, type AdminPage, Outbox } from '@shiliu/platform';
import { DataSource, type EntityManager } from 'typeorm';
import { PostRepository } from '../posts/post.repository';
import { ReactionService } from '../reactions/reaction.service';
import { TagRepository } from '../tags/tag.repository';
import {
  type AdminCategoryRow,
  AdminCatalogueRepository,
  type AdminCollectionRow,
  type AdminLikeRow,
  type AdminTagRow,
} from './admin-catalogue.repository';
import { AdminContentRepository } from './admin-content.repository';

export interface AdminCategoryView {
  id: number;
  name: string;
  category_title: string;
  post_count: number;
  created_at: string;
}

export interface AdminTagView {
  id: number;
  name: string;
  use_count: number;
  created_at: string;
}

export interface AdminLikeView {
  id: number;
  user_id: number;
  user_display_id: string | null;
  nickname: string | null;
  target_type: 1 | 2;
  target_id: number;
  created_at: string;
}

export interface AdminCollectionView {
  id: number;
  user_id: number;
  user_display_id: string | null;
  nickname: string | null;
  post_id: number;
  post_title: string;
  created_at: string;
}

const categoryView = (row: AdminCategoryRow): AdminCategoryView => ({ ...row, created_at: row.created_at.toISOString() });
const tagView = (row: AdminTagRow): AdminTagView => ({ ...row, created_at: row.created_at.toISOString() });
const likeView = (row: AdminLikeRow): AdminLikeView => ({ ...row, id: Number(row.id), user_id: Number(row.user_id), target_id: Number(row.target_id), created_at: row.created_at.toISOString() });
const collectionView = (row: AdminCollectionRow): AdminCollectionView => ({
  ...row,
  id: Number(row.id),
  user_id: Number(row.user_id),
  post_id: Number(row.post_id),
  created_at: row.created_at.toISOString(),
});

/**
 * Categories, tags, likes and collections in the back office. A rename shows in every note that carries the
 * category or tag, so those notes go out again as post.updated (search and the feeds' readers keep their copies);
 * likes and collections are made and taken back through ReactionService, with the counters and events of a
 * student's tap.
 */
@Injectable()
export class AdminCatalogueService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: Outbox,
    private readonly lists: AdminCatalogueRepository,
    private readonly content: AdminContentRepository,
    private readonly posts: PostRepository,
    private readonly tags: TagRepository,
    private readonly reactions: ReactionService,
  ) {}

  async categoryList(query: AdminListQuery): Promise<AdminPage<AdminCategoryView>> {
    const { rows, total } = await this.lists.categories(this.dataSource.manager, query);
    return adminPage(rows.map(categoryView), query, total);
  }

  async createCategory(name: string, title: string): Promise<AdminCategoryView> {
    // In a transaction that a refusal rolls back, so the administrator's audit entry commits with the row alone (AdminActionRecorder).
    const id = await this.dataSource.transaction(async (manager) => {
      const inserted = await this.lists.insertCategory(manager, name, title);
      if (inserted === null) throw new ConflictException('分类名称或英文标题已存在');
      return inserted;
    });
    return categoryView((await this.lists.category(this.dataSource.manager, id))!);
  }

  async updateCategory(id: number, name: string, title: string): Promise<AdminCategoryView> {
    await this.dataSource.transaction(async (manager) => {
      if (!(await this.lists.category(manager, id))) throw new NotFoundException('分类不存在');
      const posts = await this.lists.lockPostsOfCategory(manager, id);
      if (!(await this.lists.updateCategory(manager, id, name, title))) throw new ConflictException('分类名称或英文标题已存在');
      await this.announce(manager, posts);
    });
    return categoryView((await this.lists.category(this.dataSource.manager, id))!);
  }

  /** A category with notes stays: its notes would lose their channel. */
  async removeCategories(ids: number[]): Promise<{ deletedCount: number }> {
    return this.dataSource.transaction(async (manager) => {
      let deletedCount = 0;
      for (const id of ids) {
        const category = await this.lists.category(manager, id);
        if (!category) continue;
        if ((await this.lists.lockPostsOfCategory(manager, id)).length > 0) throw new ConflictException(`分类「${category.name}」下还有笔记，不能删除`);
        if (await this.lists.deleteCategory(manager, id)) deletedCount += 1;
      }
      return { deletedCount };
    });
  }

  async tagList(query: AdminListQuery): Promise<AdminPage<AdminTagView>> {
    const { rows, total } = await this.lists.tags(this.dataSource.manager, query);
    return adminPage(rows.map(tagView), query, total);
  }

  async createTag(name: string): Promise<AdminTagView> {
    const id = await this.dataSource.transaction(async (manager) => {
      const inserted = await this.lists.insertTag(manager, name);
      if (inserted === null) throw new ConflictException('标签已存在');
      return inserted;
    });
    return tagView((await this.lists.tag(this.dataSource.manager, id))!);
  }

  async renameTag(id: number, name: string): Promise<AdminTagView> {
    await this.dataSource.transaction(async (manager) => {
      if (!(await this.lists.tag(manager, id))) throw new NotFoundException('标签不存在');
      const posts = await this.lists.lockPostsOfTag(manager, id);
      if (!(await this.lists.renameTag(manager, id, name))) throw new ConflictException('标签已存在');
      await this.announce(manager, posts);
    });
    return tagView((await this.lists.tag(this.dataSource.manager, id))!);
  }

  /** The tag leaves every note that carried it, and those notes are announced without it. */
  async removeTags(ids: number[]): Promise<{ deletedCount: number }> {
    return this.dataSource.transaction(async (manager) => {
      let deletedCount = 0;
      for (const id of [...ids].sort((a, b) => a - b)) {
        const posts = await this.lists.lockPostsOfTag(manager, id);
        if (!(await this.lists.deleteTag(manager, id))) continue;
        await this.announce(manager, posts);
        deletedCount += 1;
      }
      return { deletedCount };
    });
  }

  async likeList(query: AdminListQuery): Promise<AdminPage<AdminLikeView>> {
    const { rows, total } = await this.lists.likes(this.dataSource.manager, query);
    return adminPage(rows.map(likeView), query, total);
  }

  async createLike(userId: string, targetType: 1 | 2, targetId: number): Promise<AdminLikeView> {
    const user = await this.userOf(userId);
    await this.reactions.like({ id: user.id, userId: null }, targetType, targetId);
    return likeView((await this.lists.likeOf(this.dataSource.manager, user.id, targetType, targetId))!);
  }

  /**
   * Moves a like to another user or target: the old like is taken back and the new one made (a new row, so the
   * answer carries its new id). Unchanged, it changes nothing; a like the new user already gave is a 409.
   */
  async updateLike(id: number, userId: string, targetType: 1 | 2, targetId: number): Promise<AdminLikeView> {
    const like = await this.lists.like(this.dataSource.manager, id);
    if (!like) throw new NotFoundException('点赞不存在');
    const user = await this.userOf(userId);
    const existing = await this.lists.likeOf(this.dataSource.manager, user.id, targetType, targetId);
    if (existing && existing.id !== like.id) throw new ConflictException('该用户已经点赞过这个对象');
    if (!existing) {
      await this.reactions.replaceLike(
        { userId: like.user_id, targetType: like.target_type, targetId: Number(like.target_id) },
        { userId: user.id, targetType, targetId },
      );
    }
    return likeView((await this.lists.likeOf(this.dataSource.manager, user.id, targetType, targetId))!);
  }

  async removeLikes(ids: number[]): Promise<{ deletedCount: number }> {
    let deletedCount = 0;
    for (const id of ids) {
      const like = await this.lists.like(this.dataSource.manager, id);
      if (!like) continue;
      await this.reactions.unlike({ id: like.user_id, userId: null }, like.target_type, Number(like.target_id));
      deletedCount += 1;
    }
    return { deletedCount };
  }

  async collectionList(query: AdminListQuery): Promise<AdminPage<AdminCollectionView>> {
    const { rows, total } = await this.lists.collections(this.dataSource.manager, query);
    return adminPage(rows.map(collectionView), query, total);
  }

  async createCollection(userId: string, postId: number): Promise<AdminCollectionView> {
    const user = await this.userOf(userId);
    await this.reactions.collect({ id: user.id, userId: null }, postId);
    return collectionView((await this.lists.collectionOf(this.dataSource.manager, user.id, postId))!);
  }

  /** Moves a collection to another user or note, as `updateLike`. */
  async updateCollection(id: number, userId: string, postId: number): Promise<AdminCollectionView> {
    const collection = await this.lists.collection(this.dataSource.manager, id);
    if (!collection) throw new NotFoundException('收藏不存在');
    const user = await this.userOf(userId);
    const existing = await this.lists.collectionOf(this.dataSource.manager, user.id, postId);
    if (existing && existing.id !== collection.id) throw new ConflictException('该用户已经收藏过这篇笔记');
    if (!existing) await this.reactions.replaceCollection({ userId: collection.user_id, postId: Number(collection.post_id) }, { userId: user.id, postId });
    return collectionView((await this.lists.collectionOf(this.dataSource.manager, user.id, postId))!);
  }

  async removeCollections(ids: number[]): Promise<{ deletedCount: number }> {
    let deletedCount = 0;
    for (const id of ids) {
      const collection = await this.lists.collection(this.dataSource.manager, id);
      if (!collection) continue;
      await this.reactions.uncollect({ id: collection.user_id, userId: null }, Number(collection.post_id));
      deletedCount += 1;
    }
    return { deletedCount };
  }

  /** Published notes go out again as they now are; use counts follow their tags. */
  private async announce(manager: EntityManager, postIds: number[]): Promise<void> {
    for (const id of postIds) {
      const post = await this.posts.find(manager, id);
      if (!post || post.is_draft) continue;
      await this.outbox.add(manager, postUpdated, { post: await this.posts.snapshot(manager, id) });
    }
    await this.tags.recount(manager, await this.tags.tagIdsOfPosts(manager, postIds));
  }

  private async userOf(userId: string): Promise<{ id: string; user_id: string }> {
    const user = await this.content.author(this.dataSource.manager, userId);
    if (!user) throw new NotFoundException('用户不存在');
    return user;
  }
}
