import { Injectable } from '@nestjs/common';
import { adminRows, type AdminListQuery, type AdminListSpec, rowsOf } from '@shiliu/platform';
import type { EntityManager } from 'typeorm';

/** admin-and-startup.md §3 "Category". */
export const CATEGORY_LIST: AdminListSpec = {
  sortFields: { id: 'k."id"', created_at: 'k."created_at"', post_count: '"post_count"', name: 'k."name"' },
  defaultSort: 'id',
  tieBreaker: 'k."id"',
  filters: {
    name: { match: 'contains', columns: ['k."name"'], description: '名称包含' },
    category_title: { match: 'contains', columns: ['k."category_title"'], description: '英文标题包含' },
  },
};

/** §3 "Tag". */
export const TAG_LIST: AdminListSpec = {
  sortFields: { id: 't."id"', created_at: 't."created_at"', use_count: 't."use_count"', name: 't."name"' },
  defaultSort: 'id',
  tieBreaker: 't."id"',
  filters: { name: { match: 'contains', columns: ['t."name"'], description: '名称包含' } },
};

/** §3 "Like": who liked which note (1) or comment (2). */
export const LIKE_LIST: AdminListSpec = {
  sortFields: { id: 'l."id"', created_at: 'l."created_at"' },
  defaultSort: 'id',
  tieBreaker: 'l."id"',
  filters: {
    user_id: { match: 'integer', columns: ['l."user_id"'], description: '点赞者的数字 ID' },
    user_display_id: { match: 'contains', columns: ['a."user_id"'], description: '点赞者的小石榴号包含' },
    target_type: { match: 'integer', columns: ['l."target_type"'], description: '1 笔记，2 评论' },
    target_id: { match: 'integer', columns: ['l."target_id"'], description: '笔记或评论 ID' },
  },
};

/** §3 "Collection". */
export const COLLECTION_LIST: AdminListSpec = {
  sortFields: { id: 'k."id"', created_at: 'k."created_at"' },
  defaultSort: 'id',
  tieBreaker: 'k."id"',
  filters: {
    user_id: { match: 'integer', columns: ['k."user_id"'], description: '收藏者的数字 ID' },
    user_display_id: { match: 'contains', columns: ['a."user_id"'], description: '收藏者的小石榴号包含' },
    post_id: { match: 'integer', columns: ['k."post_id"'], description: '笔记 ID' },
    post_title: { match: 'contains', columns: ['p."title"'], description: '笔记标题包含' },
  },
};

export interface AdminCategoryRow {
  id: number;
  name: string;
  category_title: string;
  post_count: number;
  created_at: Date;
}

export interface AdminTagRow {
  id: number;
  name: string;
  use_count: number;
  created_at: Date;
}

export interface AdminLikeRow {
  id: string;
  user_id: string;
  user_display_id: string | null;
  nickname: string | null;
  target_type: 1 | 2;
  target_id: string;
  created_at: Date;
}

export interface AdminCollectionRow {
  id: string;
  user_id: string;
  user_display_id: string | null;
  nickname: string | null;
  post_id: string;
  post_title: string;
  created_at: Date;
}

const SELECT_CATEGORIES = `
  SELECT k."id", k."name", k."category_title", k."created_at",
    (SELECT count(*)::int FROM "posts" p WHERE p."category_id" = k."id" AND NOT p."is_draft") AS "post_count"
  FROM "categories" k`;
const SELECT_TAGS = `SELECT t."id", t."name", t."use_count", t."created_at" FROM "tags" t`;
const SELECT_LIKES = `
  SELECT l."id", l."user_id", a."user_id" AS "user_display_id", a."nickname", l."target_type", l."target_id", l."created_at"
  FROM "likes" l LEFT JOIN "authors" a ON a."id" = l."user_id"`;
const SELECT_COLLECTIONS = `
  SELECT k."id", k."user_id", a."user_id" AS "user_display_id", a."nickname", k."post_id", p."title" AS "post_title", k."created_at"
  FROM "collections" k JOIN "posts" p ON p."id" = k."post_id" LEFT JOIN "authors" a ON a."id" = k."user_id"`;

/** Categories, tags, likes and collections as the back office lists and changes them. */
@Injectable()
export class AdminCatalogueRepository {
  categories(manager: EntityManager, query: AdminListQuery): Promise<{ rows: AdminCategoryRow[]; total: number }> {
    return adminRows<AdminCategoryRow>(manager, query, SELECT_CATEGORIES);
  }

  async category(manager: EntityManager, id: number): Promise<AdminCategoryRow | null> {
    const [row] = await rowsOf<AdminCategoryRow>(manager, `${SELECT_CATEGORIES} WHERE k."id" = $1::bigint`, [id]);
    return row ?? null;
  }

  /** Answers the new id, or null when the name or English title is taken. */
  async insertCategory(manager: EntityManager, name: string, title: string): Promise<number | null> {
    const [row] = await rowsOf<{ id: number }>(
      manager,
      `INSERT INTO "categories" ("name", "category_title", "sort_order") VALUES ($1, $2, (SELECT COALESCE(max("sort_order"), 0) + 1 FROM "categories"))
       ON CONFLICT DO NOTHING RETURNING "id"`,
      [name, title],
    );
    return row?.id ?? null;
  }

  /** Answers false when another category has the name or English title. */
  async updateCategory(manager: EntityManager, id: number, name: string, title: string): Promise<boolean> {
    const taken = await rowsOf(manager, `SELECT 1 FROM "categories" WHERE ("name" = $2 OR "category_title" = $3) AND "id" <> $1::bigint`, [id, name, title]);
    if (taken.length > 0) return false;
    await rowsOf(manager, `UPDATE "categories" SET "name" = $2, "category_title" = $3 WHERE "id" = $1::bigint`, [id, name, title]);
    return true;
  }

  /** Notes of the category, drafts included, locked in id order. */
  async lockPostsOfCategory(manager: EntityManager, id: number): Promise<number[]> {
    return (await rowsOf<{ id: string }>(manager, `SELECT "id" FROM "posts" WHERE "category_id" = $1::bigint ORDER BY "id" FOR UPDATE`, [id])).map((row) => Number(row.id));
  }

  async deleteCategory(manager: EntityManager, id: number): Promise<boolean> {
    return (await rowsOf(manager, `DELETE FROM "categories" WHERE "id" = $1::bigint RETURNING "id"`, [id])).length > 0;
  }

  tags(manager: EntityManager, query: AdminListQuery): Promise<{ rows: AdminTagRow[]; total: number }> {
    return adminRows<AdminTagRow>(manager, query, SELECT_TAGS);
  }

  async tag(manager: EntityManager, id: number): Promise<AdminTagRow | null> {
    const [row] = await rowsOf<AdminTagRow>(manager, `${SELECT_TAGS} WHERE t."id" = $1::bigint`, [id]);
    return row ?? null;
  }

  /** Answers the new id, or null when a tag of that name (in any case) exists. */
  async insertTag(manager: EntityManager, name: string): Promise<number | null> {
    const [row] = await rowsOf<{ id: number }>(manager, `INSERT INTO "tags" ("name") VALUES ($1) ON CONFLICT DO NOTHING RETURNING "id"`, [name]);
    return row?.id ?? null;
  }

  async renameTag(manager: EntityManager, id: number, name: string): Promise<boolean> {
    const taken = await rowsOf(manager, `SELECT 1 FROM "tags" WHERE lower("name") = lower($2) AND "id" <> $1::bigint`, [id, name]);
    if (taken.length > 0) return false;
    await rowsOf(manager, `UPDATE "tags" SET "name" = $2 WHERE "id" = $1::bigint`, [id, name]);
    return true;
  }

  /** Notes carrying the tag, locked in id order. */
  async lockPostsOfTag(manager: EntityManager, id: number): Promise<number[]> {
    return (
      await rowsOf<{ id: string }>(manager, `SELECT p."id" FROM "posts" p JOIN "post_tags" pt ON pt."post_id" = p."id" WHERE pt."tag_id" = $1::bigint ORDER BY p."id" FOR UPDATE OF p`, [id])
    ).map((row) => Number(row.id));
  }

  async deleteTag(manager: EntityManager, id: number): Promise<boolean> {
    return (await rowsOf(manager, `DELETE FROM "tags" WHERE "id" = $1::bigint RETURNING "id"`, [id])).length > 0;
  }

  likes(manager: EntityManager, query: AdminListQuery): Promise<{ rows: AdminLikeRow[]; total: number }> {
    return adminRows<AdminLikeRow>(manager, query, SELECT_LIKES);
  }

  async like(manager: EntityManager, id: number): Promise<AdminLikeRow | null> {
    const [row] = await rowsOf<AdminLikeRow>(manager, `${SELECT_LIKES} WHERE l."id" = $1`, [id]);
    return row ?? null;
  }

  async likeOf(manager: EntityManager, userId: string, targetType: 1 | 2, targetId: number): Promise<AdminLikeRow | null> {
    const [row] = await rowsOf<AdminLikeRow>(manager, `${SELECT_LIKES} WHERE l."user_id" = $1 AND l."target_type" = $2 AND l."target_id" = $3`, [userId, targetType, targetId]);
    return row ?? null;
  }

  collections(manager: EntityManager, query: AdminListQuery): Promise<{ rows: AdminCollectionRow[]; total: number }> {
    return adminRows<AdminCollectionRow>(manager, query, SELECT_COLLECTIONS);
  }

  async collection(manager: EntityManager, id: number): Promise<AdminCollectionRow | null> {
    const [row] = await rowsOf<AdminCollectionRow>(manager, `${SELECT_COLLECTIONS} WHERE k."id" = $1`, [id]);
    return row ?? null;
  }

  async collectionOf(manager: EntityManager, userId: string, postId: number): Promise<AdminCollectionRow | null> {
    const [row] = await rowsOf<AdminCollectionRow>(manager, `${SELECT_COLLECTIONS} WHERE k."user_id" = $1 AND k."post_id" = $2`, [userId, postId]);
    return row ?? null;
  }
}
