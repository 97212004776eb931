import { Injectable } from '@nestjs/common';
import DataLoader from 'dataloader';
import type { PostSnapshot } from '@shiliu/contracts';
import { prepared, preparedRows, rowsOf } from '@shiliu/platform';
import { DataSource, type EntityManager } from 'typeorm';
import { VIEWS_ONLY_SETTING } from '../migrations/1764400000000-view-count-notices';
import { sameRound } from '../shared/same-round';
import { containsPattern } from '../shared/sql';

export interface StoredImage {
  url: string;
  width: number | null;
  height: number | null;
  /** From media.image.processed: the blurred preview and the feed-card version. */
  blurhash?: string | null;
  thumbnail_url?: string | null;
}

export interface StoredVideo {
  url: string;
  cover_url: string | null;
  name: string | null;
  size: number | null;
}

/** A note as stored, without the author and viewer parts. */
export interface PostRecord {
  id: string;
  author_id: string;
  title: string;
  content: string;
  content_text: string;
  category_id: number | null;
  type: number;
  is_draft: boolean;
  images: StoredImage[];
  video: StoredVideo | null;
  cover_url: string | null;
  like_count: number;
  collect_count: number;
  comment_count: number;
  view_count: number;
  created_at: Date;
}

/** A note as read: with its author, category, tags and the viewer's like and collection. */
export interface PostRow extends Omit<PostRecord, 'content_text'> {
  updated_at: Date;
  category_name: string | null;
  category_title: string | null;
  author_user_id: string;
  nickname: string;
  avatar: string;
  verified: number;
  location: string;
  tags: { id: number; name: string }[];
  liked: boolean;
  collected: boolean;
}

export interface PostValues {
  title: string;
  content: string;
  contentText: string;
  categoryId: number | null;
  type: 1 | 2;
  isDraft: boolean;
  images: StoredImage[];
  video: StoredVideo | null;
  coverUrl: string | null;
}

export type FeedOrder = 'hot' | 'newest' | 'oldest' | 'likes' | 'views';

export interface FeedFilter {
  drafts: boolean;
  /** Only notes created up to this instant: the page numbers of one scroll stay on the same set of notes. */
  snapshot: Date;
  categoryTitle?: string;
  categoryId?: number;
  type?: number;
  authorId?: string;
  /** The 关注 feed: only notes by the people this user follows (numeric id). */
  followerId?: string;
  keyword?: string;
  /** The personalised 推荐: never the viewer's own notes (numeric id). */
  exceptAuthorId?: string;
  /** The personalised 推荐 past its ranking: the notes already ranked are not shown again. */
  exceptIds?: number[];
}

const ORDER_BY: Record<FeedOrder, string> = {
  hot: `p."hot_score" DESC, p."id" DESC`,
  newest: `p."created_at" DESC, p."id" DESC`,
  oldest: `p."created_at" ASC, p."id" ASC`,
  likes: `p."like_count" DESC, p."id" DESC`,
  views: `p."view_count" DESC, p."id" DESC`,
};

/** How much of a note's plain text a list carries for the draft box and note management (public-side.md §2). */
export const LIST_EXCERPT_LENGTH = 100;

/**
 * The read columns of a note. `$1` is the viewer's numeric id or null; `liked` and `collected` are index
 * look-ups on the unique keys, and the tags come along in the same round trip. Lists carry a plain-text excerpt
 * as `content`, the detail the rich text.
 */
function selectPosts(withContent: boolean): string {
  return `
    SELECT p."id", p."author_id", p."title", ${withContent ? `p."content"` : `left(p."content_text", ${LIST_EXCERPT_LENGTH}) AS "content"`}, p."category_id", p."type", p."is_draft", p."images", p."video",
      p."cover_url", p."like_count", p."collect_count", p."comment_count", p."view_count", p."created_at", p."updated_at",
      c."name" AS "category_name", c."category_title",
      a."user_id" AS "author_user_id", a."nickname", a."avatar", a."verified", a."location",
      COALESCE((SELECT json_agg(json_build_object('id', t."id", 'name', t."name") ORDER BY pt."position")
                FROM "post_tags" pt JOIN "tags" t ON t."id" = pt."tag_id" WHERE pt."post_id" = p."id"), '[]') AS "tags",
      ($1::bigint IS NOT NULL AND EXISTS (SELECT 1 FROM "likes" l WHERE l."user_id" = $1 AND l."target_type" = 1 AND l."target_id" = p."id")) AS "liked",
      ($1::bigint IS NOT NULL AND EXISTS (SELECT 1 FROM "collections" k WHERE k."user_id" = $1 AND k."post_id" = p."id")) AS "collected"
    FROM "posts" p
    JOIN "authors" a ON a."id" = p."author_id"
    LEFT JOIN "categories" c ON c."id" = p."category_id"`;
}

/** The WHERE of a feed, its placeholders numbered from `first`. */
function feedCondition(filter: FeedFilter, first: number): { condition: string; params: unknown[] } {
  const params: unknown[] = [];
  const add = (value: unknown) => {
    params.push(value);
    return `$${first + params.length - 1}`;
  };
  const where = [`p."is_draft" = ${add(filter.drafts)}`, `p."created_at" <= ${add(filter.snapshot)}`];
  if (filter.categoryId !== undefined) where.push(`p."category_id" = ${add(filter.categoryId)}`);
  if (filter.categoryTitle !== undefined) where.push(`p."category_id" = (SELECT "id" FROM "categories" WHERE "category_title" = ${add(filter.categoryTitle)})`);
  if (filter.type !== undefined) where.push(`p."type" = ${add(filter.type)}`);
  if (filter.authorId !== undefined) where.push(`p."author_id" = ${add(filter.authorId)}`);
  if (filter.followerId !== undefined) where.push(`p."author_id" IN (SELECT f."following_id" FROM "follows" f WHERE f."follower_id" = ${add(filter.followerId)} AND f."active")`);
  if (filter.exceptAuthorId !== undefined) where.push(`p."author_id" <> ${add(filter.exceptAuthorId)}`);
  if (filter.exceptIds !== undefined) where.push(`NOT (p."id" = ANY(${add(filter.exceptIds)}::bigint[]))`);
  if (filter.keyword) {
    const pattern = add(containsPattern(filter.keyword));
    where.push(`(p."title" ILIKE ${pattern} OR p."content_text" ILIKE ${pattern})`);
  }
  return { condition: where.join(' AND '), params };
}

export interface SqlStatement {
  sql: string;
  params: unknown[];
}

/**
 * The SQL of one feed page by offset and of its total, exposed so the feed benchmark runs what the API runs. The
 * moving orders' first pages run `rankingQuery` and then read the page's notes by id instead.
 */
export function feedQueries(filter: FeedFilter, order: FeedOrder, viewerId: string | null, limit: number, offset: number): { page: SqlStatement; total: SqlStatement } {
  const forPage = feedCondition(filter, 2);
  const next = forPage.params.length + 2;
  return {
    page: {
      sql: `${selectPosts(false)} WHERE ${forPage.condition} ORDER BY ${ORDER_BY[order]} LIMIT $${next} OFFSET $${next + 1}`,
      params: [viewerId, ...forPage.params, limit, offset],
    },
    total: totalQuery(filter),
  };
}

function totalQuery(filter: FeedFilter): SqlStatement {
  const { condition, params } = feedCondition(filter, 1);
  return { sql: `SELECT count(*)::int AS "total" FROM "posts" p WHERE ${condition}`, params };
}

/** The ids of a feed's first `depth` notes in its order: the ranking a reader's scroll is frozen on. */
export function rankingQuery(filter: FeedFilter, order: FeedOrder, depth: number): SqlStatement {
  const { condition, params } = feedCondition(filter, 1);
  return { sql: `SELECT p."id" FROM "posts" p WHERE ${condition} ORDER BY ${ORDER_BY[order]} LIMIT $${params.length + 1}`, params: [...params, depth] };
}

/** Published notes as anyone sees them, by id (`$2`, an array; `$1` null): what a detail reads. */
export const shownNotes = prepared(`${selectPosts(true)} WHERE p."id" = ANY($2::bigint[]) AND NOT p."is_draft"`);

/** Cards of notes, by id (`$2`, an array; `$1` null): what a feed page reads for the cards it has not kept. */
const noteCards = prepared(`${selectPosts(false)} WHERE p."id" = ANY($2::bigint[])`);

/** Whether each viewer (`$1`) likes and collects each note (`$2`), in the order asked. */
export const viewerFlags = prepared(
  `SELECT EXISTS (SELECT 1 FROM "likes" l WHERE l."user_id" = q."viewer" AND l."target_type" = 1 AND l."target_id" = q."post") AS "liked",
          EXISTS (SELECT 1 FROM "collections" k WHERE k."user_id" = q."viewer" AND k."post_id" = q."post") AS "collected"
   FROM unnest($1::bigint[], $2::bigint[]) WITH ORDINALITY AS q("viewer", "post", "n") ORDER BY q."n"`,
);

/** One note with everything a reader sees (the detail call's query). */
export function detailQuery(id: number, viewerId: string | null): SqlStatement {
  return { sql: `${selectPosts(true)} WHERE p."id" = $2`, params: [viewerId, id] };
}

@Injectable()
export class PostRepository {
  /** Published notes as anyone sees them, by id, read together per round (`sameRound`). */
  private readonly shown = new DataLoader<number, PostRow | null>(
    async (ids) => {
      const rows = await preparedRows<PostRow>(this.dataSource, shownNotes, [null, ids]);
      const byId = new Map(rows.map((row) => [Number(row.id), row]));
      return ids.map((id) => byId.get(id) ?? null);
    },
    sameRound(),
  );

  /** Whether a viewer likes and collects a note, read together per round, for every viewer and page of the round. */
  private readonly flags = new DataLoader<{ viewerId: string; postId: number }, { liked: boolean; collected: boolean }>(
    (asked) => preparedRows<{ liked: boolean; collected: boolean }>(this.dataSource, viewerFlags, [asked.map((each) => each.viewerId), asked.map((each) => each.postId)]),
    sameRound(),
  );

  constructor(private readonly dataSource: DataSource) {}

  /** Whether the viewer likes and collects the note: the part of a cached detail that is theirs alone. */
  viewerFlagsOf(viewerId: string, postId: number): Promise<{ liked: boolean; collected: boolean }> {
    return this.flags.load({ viewerId, postId });
  }

  /** A published note as anyone sees it (not the viewer's like and collection); null for a draft or no note. */
  findPublished(id: number): Promise<PostRow | null> {
    return this.shown.load(id);
  }

  async insert(manager: EntityManager, authorId: string, values: PostValues, at: Date | null): Promise<number> {
    const rows: { id: string }[] = await manager.query(
      `INSERT INTO "posts" ("author_id", "title", "content", "content_text", "category_id", "type", "is_draft", "images", "video", "cover_url", "created_at", "updated_at")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, COALESCE($11, now()), COALESCE($11, now())) RETURNING "id"`,
      [authorId, values.title, values.content, values.contentText, values.categoryId, values.type, values.isDraft, JSON.stringify(values.images), values.video && JSON.stringify(values.video), values.coverUrl, at],
    );
    return Number(rows[0].id);
  }

  /** Publishing a draft makes it new: it enters the feeds at the time it was published. */
  async update(manager: EntityManager, id: number, values: PostValues, publishing: boolean): Promise<void> {
    await manager.query(
      `UPDATE "posts" SET "title" = $2, "content" = $3, "content_text" = $4, "category_id" = $5, "type" = $6, "is_draft" = $7, "images" = $8,
         "video" = $9, "cover_url" = $10, "updated_at" = now(), "created_at" = CASE WHEN $11 THEN now() ELSE "created_at" END
       WHERE "id" = $1`,
      [id, values.title, values.content, values.contentText, values.categoryId, values.type, values.isDraft, JSON.stringify(values.images), values.video && JSON.stringify(values.video), values.coverUrl, publishing],
    );
  }

  async lock(manager: EntityManager, id: number): Promise<PostRecord | null> {
    const rows: PostRecord[] = await manager.query(`SELECT * FROM "posts" WHERE "id" = $1 FOR UPDATE`, [id]);
    return rows[0] ?? null;
  }

  async find(manager: EntityManager, id: number): Promise<PostRecord | null> {
    const rows: PostRecord[] = await manager.query(`SELECT * FROM "posts" WHERE "id" = $1`, [id]);
    return rows[0] ?? null;
  }

  async findRow(manager: EntityManager, id: number, viewerId: string | null): Promise<PostRow | null> {
    const query = detailQuery(id, viewerId);
    const rows: PostRow[] = await manager.query(query.sql, query.params);
    return rows[0] ?? null;
  }

  async page(filter: FeedFilter, order: FeedOrder, viewerId: string | null, limit: number, offset: number): Promise<{ rows: PostRow[]; total: number }> {
    const queries = feedQueries(filter, order, viewerId, limit, offset);
    const [rows, [{ total }]] = await Promise.all([
      this.dataSource.query(queries.page.sql, queries.page.params) as Promise<PostRow[]>,
      this.dataSource.query(queries.total.sql, queries.total.params) as Promise<{ total: number }[]>,
    ]);
    return { rows, total };
  }

  async ranking(filter: FeedFilter, order: FeedOrder, depth: number): Promise<number[]> {
    const query = rankingQuery(filter, order, depth);
    const rows: { id: string }[] = await this.dataSource.query(query.sql, query.params);
    return rows.map((row) => Number(row.id));
  }

  /** The notes of a frozen ranking's page, in its order (notes deleted since are left out), and the feed's total. */
  async rankedPage(filter: FeedFilter, ids: number[], viewerId: string | null): Promise<{ rows: PostRow[]; total: number }> {
    const total = totalQuery(filter);
    const [rows, [{ total: count }]] = await Promise.all([
      this.dataSource.query(`${selectPosts(false)} WHERE p."id" = ANY($2::bigint[]) ORDER BY array_position($2::bigint[], p."id")`, [viewerId, ids]) as Promise<PostRow[]>,
      this.dataSource.query(total.sql, total.params) as Promise<{ total: number }[]>,
    ]);
    return { rows, total: count };
  }

  /** Feed cards of the notes named, as anyone sees them (not the viewer's like and collection), in no order. */
  async cards(ids: number[]): Promise<PostRow[]> {
    return preparedRows<PostRow>(this.dataSource, noteCards, [null, ids]);
  }

  /** Notes a user liked (reaction 'likes') or collected, newest action first. */
  async reactedPage(kind: 'likes' | 'collections', userId: string, viewerId: string | null, limit: number, offset: number): Promise<{ rows: PostRow[]; total: number }> {
    const source =
      kind === 'likes'
        ? `SELECT "target_id" AS "post_id", "created_at", "id" FROM "likes" WHERE "user_id" = $2 AND "target_type" = 1`
        : `SELECT "post_id", "created_at", "id" FROM "collections" WHERE "user_id" = $2`;
    const [rows, [{ total }]] = await Promise.all([
      this.dataSource.query(
        `${selectPosts(false)} JOIN (${source}) r ON r."post_id" = p."id" WHERE NOT p."is_draft" ORDER BY r."created_at" DESC, r."id" DESC LIMIT $3 OFFSET $4`,
        [viewerId, userId, limit, offset],
      ) as Promise<PostRow[]>,
      this.dataSource.query(`SELECT count(*)::int AS "total" FROM (${source.replace('$2', '$1')}) r`, [userId]) as Promise<{ total: number }[]>,
    ]);
    return { rows, total };
  }

  async replaceMentions(manager: EntityManager, postId: number, userIds: string[]): Promise<string[]> {
    const before = await rowsOf<{ user_id: string }>(manager, `DELETE FROM "post_mentions" WHERE "post_id" = $1 RETURNING "user_id"`, [postId]);
    if (userIds.length > 0) {
      await manager.query(`INSERT INTO "post_mentions" ("post_id", "user_id") SELECT $1, unnest($2::bigint[]) ON CONFLICT DO NOTHING`, [postId, userIds]);
    }
    return before.map((row) => String(row.user_id));
  }

  async mentions(manager: EntityManager, postId: number): Promise<string[]> {
    const rows: { user_id: string }[] = await manager.query(`SELECT "user_id" FROM "post_mentions" WHERE "post_id" = $1`, [postId]);
    return rows.map((row) => String(row.user_id));
  }

  /** The next published notes after `after` by id, with their counters, read FOR SHARE (a change committing meanwhile waits for the caller). */
  async publishedForShare(manager: EntityManager, after: number, limit: number): Promise<{ id: string; like_count: number; collect_count: number; comment_count: number }[]> {
    return rowsOf(
      manager,
      `SELECT "id", "like_count", "collect_count", "comment_count" FROM "posts" WHERE NOT "is_draft" AND "id" > $1 ORDER BY "id" LIMIT $2 FOR SHARE`,
      [after, limit],
    );
  }

  /** Who likes and who collects a note, read FOR SHARE like the note itself. */
  async reactorsForShare(manager: EntityManager, postId: number): Promise<{ likedBy: number[]; collectedBy: number[] }> {
    const likers = await rowsOf<{ user_id: string }>(manager, `SELECT "user_id" FROM "likes" WHERE "target_type" = 1 AND "target_id" = $1 ORDER BY "user_id" FOR SHARE`, [postId]);
    const collectors = await rowsOf<{ user_id: string }>(manager, `SELECT "user_id" FROM "collections" WHERE "post_id" = $1 ORDER BY "user_id" FOR SHARE`, [postId]);
    return { likedBy: likers.map((row) => Number(row.user_id)), collectedBy: collectors.map((row) => Number(row.user_id)) };
  }

  /** What media told of an image (size, placeholder, thumbnail), or null when it has not. */
  async imageDetails(url: string): Promise<StoredImage | null> {
    const [row] = await rowsOf<StoredImage>(this.dataSource, `SELECT "url", "width", "height", "blurhash", "thumbnail_url" FROM "image_details" WHERE "url" = $1`, [url]);
    return row ?? null;
  }

  /** Keeps what media told of an image, and copies it into every note that already shows the image. */
  async saveImageDetails(manager: EntityManager, image: Required<StoredImage>): Promise<void> {
    const params = [image.url, image.width, image.height, image.blurhash, image.thumbnail_url];
    await rowsOf(
      manager,
      `INSERT INTO "image_details" ("url", "width", "height", "blurhash", "thumbnail_url") VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT ("url") DO UPDATE SET "width" = $2, "height" = $3, "blurhash" = $4, "thumbnail_url" = $5`,
      params,
    );
    const ids = await lockInOrder(manager, `"images" @> jsonb_build_array(jsonb_build_object('url', $1::text))`, [image.url]);
    if (ids.length === 0) return;
    await rowsOf(
      manager,
      `UPDATE "posts" SET "images" = (
         SELECT jsonb_agg(CASE WHEN image->>'url' = $1
           THEN image || jsonb_build_object('width', $2::int, 'height', $3::int, 'blurhash', $4::text, 'thumbnail_url', $5::text)
           ELSE image END ORDER BY position)
         FROM jsonb_array_elements("images") WITH ORDINALITY AS list(image, position))
       WHERE "id" = ANY($6::bigint[])`,
      [...params, ids],
    );
  }

  /**
   * Switches the owner's notes and drafts that name an uploaded video to its playable file, giving them the
   * generated cover where they had none; answers the notes changed. An administrator's upload (a negative owner:
   * media counts administrators apart) switches every note that names it, since the console writes students' notes.
   */
  async switchVideo(manager: EntityManager, ownerId: number, sourceUrl: string, videoUrl: string, coverUrl: string | null): Promise<{ id: string; is_draft: boolean }[]> {
    await lockInOrder(manager, `($1::bigint < 0 OR "author_id" = $1) AND "video"->>'url' = $2`, [ownerId, sourceUrl]);
    return rowsOf(
      manager,
      `UPDATE "posts" SET
         "video" = jsonb_set(
           jsonb_set("video", '{url}', to_jsonb($3::text)),
           '{cover_url}', CASE WHEN "video"->>'cover_url' IS NULL THEN to_jsonb($4::text) ELSE "video"->'cover_url' END),
         "cover_url" = COALESCE("cover_url", $4),
         "updated_at" = now()
       WHERE ($1::bigint < 0 OR "author_id" = $1) AND "video"->>'url' = $2
       RETURNING "id", "is_draft"`,
      [ownerId, sourceUrl, videoUrl, coverUrl],
    );
  }

  /**
   * Adds counted views to the notes' rows in one statement; deleted notes simply match nothing. The rows announce
   * the views they took on (`v<id>:<views>`), not a change of note (migration ViewCountNotices).
   */
  async addViews(counts: Map<number, number>): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT set_config($1, 'on', true)`, [VIEWS_ONLY_SETTING]);
      await lockInOrder(manager, `"id" = ANY($1::bigint[])`, [[...counts.keys()]]);
      await rowsOf(
        manager,
        `UPDATE "posts" p SET "view_count" = p."view_count" + v."n"
           FROM unnest($1::bigint[], $2::int[]) AS v("id", "n") WHERE p."id" = v."id"`,
        [[...counts.keys()], [...counts.values()]],
      );
    });
  }

  /** Demo data: views that loosely follow each note's engagement. */
  async estimateViewsFromEngagement(manager: EntityManager): Promise<void> {
    await rowsOf(manager, `UPDATE "posts" SET "view_count" = "like_count" * 6 + "comment_count" * 4 + floor(random() * 120)::int`);
  }

  /** A deleted account is mentioned nowhere any more. */
  async removeMentionsOf(manager: EntityManager, userId: string): Promise<void> {
    await rowsOf(manager, `DELETE FROM "post_mentions" WHERE "user_id" = $1`, [userId]);
  }

  /** Removes a note and everything hanging off it; likes have no foreign key (one table for two targets), so they go by hand. */
  async remove(manager: EntityManager, id: number): Promise<void> {
    await manager.query(`DELETE FROM "likes" WHERE "target_type" = 2 AND "target_id" IN (SELECT "id" FROM "comments" WHERE "post_id" = $1)`, [id]);
    await manager.query(`DELETE FROM "likes" WHERE "target_type" = 1 AND "target_id" = $1`, [id]);
    await manager.query(`DELETE FROM "posts" WHERE "id" = $1`, [id]);
  }

  async idsByAuthor(manager: EntityManager, authorId: string): Promise<number[]> {
    const rows: { id: string }[] = await manager.query(`SELECT "id" FROM "posts" WHERE "author_id" = $1 ORDER BY "id"`, [authorId]);
    return rows.map((row) => Number(row.id));
  }

  /** The note as events carry it (DESIGN.md §1: other services learn about notes only from these). */
  async snapshot(manager: EntityManager, id: number): Promise<PostSnapshot> {
    const [row]: (PostRecord & { author_user_id: string; category_title: string | null; tag_names: string[] })[] = await manager.query(
      `SELECT p.*, a."user_id" AS "author_user_id", c."category_title",
         COALESCE((SELECT array_agg(t."name" ORDER BY pt."position") FROM "post_tags" pt JOIN "tags" t ON t."id" = pt."tag_id" WHERE pt."post_id" = p."id"), '{}') AS "tag_names"
       FROM "posts" p JOIN "authors" a ON a."id" = p."author_id" LEFT JOIN "categories" c ON c."id" = p."category_id" WHERE p."id" = $1`,
      [id],
    );
    return {
      id: Number(row.id),
      author_id: Number(row.author_id),
      author_user_id: row.author_user_id,
      title: row.title,
      content_text: row.content_text,
      category_id: row.category_id,
      category_title: row.category_title,
      type: row.type === 2 ? 2 : 1,
      tags: row.tag_names,
      images: row.images.map((image) => image.url),
      cover_url: row.cover_url ?? row.images[0]?.url ?? null,
      video_url: row.video?.url ?? null,
      created_at: row.created_at.toISOString(),
    };
  }
}

/**
 * Locks the notes matching `where` in id order and answers their ids. Every statement that changes several notes
 * locks them this way first: two of them taking rows in different orders (a batch of views and an image shared by
 * many notes) waited on each other until PostgreSQL broke the cycle with a "deadlock detected" error.
 */
async function lockInOrder(manager: EntityManager, where: string, params: unknown[]): Promise<number[]> {
  const rows = await rowsOf<{ id: string }>(manager, `SELECT "id" FROM "posts" WHERE ${where} ORDER BY "id" FOR NO KEY UPDATE`, params);
  return rows.map((row) => Number(row.id));
}
