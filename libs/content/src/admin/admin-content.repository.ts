import { Injectable } from '@nestjs/common';
import { adminRows, type AdminListQuery, type AdminListSpec, rowsOf } from '@shiliu/platform';
import type { EntityManager } from 'typeorm';
import type { StoredImage, StoredVideo } from '../posts/post.repository';

/** admin-and-startup.md §3 "Post": a filter for each field the notes table shows, and its sortable columns. */
export const POST_LIST: AdminListSpec = {
  sortFields: {
    id: 'p."id"',
    created_at: 'p."created_at"',
    view_count: 'p."view_count"',
    like_count: 'p."like_count"',
    collect_count: 'p."collect_count"',
    comment_count: 'p."comment_count"',
  },
  defaultSort: 'id',
  tieBreaker: 'p."id"',
  filters: {
    title: { match: 'contains', columns: ['p."title"'], description: '标题包含' },
    user_display_id: { match: 'contains', columns: ['a."user_id"'], description: '作者的小石榴号包含' },
    nickname: { match: 'contains', columns: ['a."nickname"'], description: '作者昵称包含' },
    content: { match: 'contains', columns: ['p."content_text"'], description: '内容包含' },
    category: { match: 'contains', columns: ['c."name"', 'c."category_title"'], description: '分类名称或英文标题包含' },
    tags: { match: 'contains', columns: [`(SELECT string_agg(t."name", ' ') FROM "post_tags" pt JOIN "tags" t ON t."id" = pt."tag_id" WHERE pt."post_id" = p."id")`], description: '标签名包含' },
    category_id: { match: 'integer', columns: ['p."category_id"'], description: '分类 ID' },
    type: { match: 'integer', columns: ['p."type"'], description: '类型：1 图文，2 视频' },
    is_draft: { match: 'boolean', columns: ['p."is_draft"'], description: '是否草稿：1 草稿，0 已发布' },
  },
};

/** §3 "Comment" and §7 (filter by post_id), a filter for each field the table shows. */
export const COMMENT_LIST: AdminListSpec = {
  sortFields: { id: 'c."id"', created_at: 'c."created_at"', like_count: 'c."like_count"' },
  defaultSort: 'id',
  tieBreaker: 'c."id"',
  filters: {
    post_id: { match: 'integer', columns: ['c."post_id"'], description: '所属笔记 ID' },
    user_id: { match: 'integer', columns: ['c."author_id"'], description: '评论者的数字 ID' },
    user_display_id: { match: 'contains', columns: ['a."user_id"'], description: '评论者的小石榴号包含' },
    parent_id: { match: 'integer', columns: ['c."parent_id"'], description: '回复的评论 ID' },
    content: { match: 'contains', columns: ['c."content_text"'], description: '内容包含' },
  },
};

export interface AdminPostRow {
  id: string;
  user_id: string;
  user_display_id: string;
  nickname: string;
  title: string;
  content: string;
  category_id: number | null;
  category: string | null;
  category_title: string | null;
  type: number;
  is_draft: boolean;
  images: StoredImage[];
  video: StoredVideo | null;
  cover_url: string | null;
  tags: string[];
  view_count: number;
  like_count: number;
  collect_count: number;
  comment_count: number;
  created_at: Date;
}

export interface AdminCommentRow {
  id: string;
  content: string;
  user_id: string;
  user_display_id: string;
  nickname: string;
  post_id: string;
  post_title: string;
  parent_id: string | null;
  like_count: number;
  created_at: Date;
}

const SELECT_POSTS = `
  SELECT p."id", p."author_id" AS "user_id", a."user_id" AS "user_display_id", a."nickname", p."title", p."content", p."category_id",
    c."name" AS "category", c."category_title", p."type", p."is_draft", p."images", p."video", p."cover_url",
    COALESCE((SELECT json_agg(t."name" ORDER BY pt."position") FROM "post_tags" pt JOIN "tags" t ON t."id" = pt."tag_id" WHERE pt."post_id" = p."id"), '[]') AS "tags",
    p."view_count", p."like_count", p."collect_count", p."comment_count", p."created_at"
  FROM "posts" p
  JOIN "authors" a ON a."id" = p."author_id"
  LEFT JOIN "categories" c ON c."id" = p."category_id"`;

const SELECT_COMMENTS = `
  SELECT c."id", c."content", c."author_id" AS "user_id", a."user_id" AS "user_display_id", a."nickname", c."post_id", p."title" AS "post_title",
    c."parent_id", c."like_count", c."created_at"
  FROM "comments" c
  JOIN "authors" a ON a."id" = c."author_id"
  JOIN "posts" p ON p."id" = c."post_id"`;

/** The back office's lists of content's own tables; display names come from content's author snapshot. */
@Injectable()
export class AdminContentRepository {
  async posts(manager: EntityManager, query: AdminListQuery): Promise<{ rows: AdminPostRow[]; total: number }> {
    return adminRows<AdminPostRow>(manager, query, SELECT_POSTS);
  }

  async post(manager: EntityManager, id: number): Promise<AdminPostRow | null> {
    const [row] = await rowsOf<AdminPostRow>(manager, `${SELECT_POSTS} WHERE p."id" = $1`, [id]);
    return row ?? null;
  }

  async comments(manager: EntityManager, query: AdminListQuery): Promise<{ rows: AdminCommentRow[]; total: number }> {
    return adminRows<AdminCommentRow>(manager, query, SELECT_COMMENTS);
  }

  async comment(manager: EntityManager, id: number): Promise<AdminCommentRow | null> {
    const [row] = await rowsOf<AdminCommentRow>(manager, `${SELECT_COMMENTS} WHERE c."id" = $1`, [id]);
    return row ?? null;
  }

  /** The note's author as an id, null when the note is gone. */
  async authorOfPost(manager: EntityManager, id: number): Promise<{ author_id: string; user_id: string } | null> {
    const [row] = await rowsOf<{ author_id: string; user_id: string }>(
      manager,
      `SELECT p."author_id", a."user_id" FROM "posts" p JOIN "authors" a ON a."id" = p."author_id" WHERE p."id" = $1`,
      [id],
    );
    return row ?? null;
  }

  /** An author named by product ID, or by numeric id when no product ID matches. */
  async author(manager: EntityManager, userId: string): Promise<{ id: string; user_id: string } | null> {
    const [row] = await rowsOf<{ id: string; user_id: string }>(
      manager,
      `SELECT "id", "user_id" FROM "authors" WHERE lower("user_id") = lower($1)
       UNION ALL SELECT "id", "user_id" FROM "authors" WHERE $1 ~ '^[0-9]{1,15}$' AND "id" = $1::bigint
       LIMIT 1`,
      [userId],
    );
    return row ?? null;
  }

  /** The view counter as the edit form sets it (min 0). */
  async setViewCount(manager: EntityManager, id: number, viewCount: number): Promise<void> {
    await rowsOf(manager, `UPDATE "posts" SET "view_count" = $2 WHERE "id" = $1`, [id, viewCount]);
  }
}
