import { DataSource } from 'typeorm';
import { MAX_RESULT_WINDOW, mergeSuggestions, type PostHits, type PostQuery, type SearchEngine, type Suggestion, type UserHits, WEIGHTS } from './search-engine';

/** `text` inside a LIKE pattern, its wildcards and escape character taken literally. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/**
 * Notes and users in this service's own tables (embedded mode): the read model is the index. A word matches as a
 * substring, case aside, as Elasticsearch's phrase queries match Han text; tags and product IDs match whole.
 */
export class PostgresEngine implements SearchEngine {
  constructor(private readonly dataSource: DataSource) {}

  async indexPost(): Promise<void> {}

  async removePost(): Promise<void> {}

  async indexUser(): Promise<void> {}

  async removeUser(): Promise<void> {}

  async searchPosts(query: PostQuery): Promise<PostHits> {
    const params: unknown[] = [];
    const param = (value: unknown): string => `$${params.push(value)}`;
    const where = [`"published"`, `NOT "deleted"`];
    if (query.tag !== null) where.push(`${param(query.tag)} = ANY("tags")`);
    if (query.kind !== 'all') where.push(`"type" = ${param(query.kind === 'videos' ? 2 : 1)}`);
    const scores: string[] = [];
    for (const term of query.terms) {
      const pattern = param(`%${likeLiteral(term)}%`);
      const exact = param(term);
      const title = `"title" ILIKE ${pattern}`;
      const content = `"content_text" ILIKE ${pattern}`;
      const tag = `${exact} = ANY("tags")`;
      where.push(`(${title} OR ${content} OR ${tag})`);
      scores.push(`(CASE WHEN ${title} THEN ${WEIGHTS.title} ELSE 0 END + CASE WHEN ${content} THEN ${WEIGHTS.content} ELSE 0 END + CASE WHEN ${tag} THEN ${WEIGHTS.tag} ELSE 0 END)`);
    }
    const matched = `SELECT "id", "tags", "like_count", "created_at", ${scores.length > 0 ? scores.join(' + ') : '0'} AS "score" FROM "posts" WHERE ${where.join(' AND ')}`;
    const size = query.offset >= MAX_RESULT_WINDOW ? 0 : Math.min(query.limit, MAX_RESULT_WINDOW - query.offset);
    const [page, stats] = await Promise.all([
      this.dataSource.query(
        `WITH "matched" AS (${matched})
         SELECT "id", (SELECT count(*) FROM "matched")::int AS "total" FROM "matched"
         ORDER BY "score" DESC, "like_count" DESC, "created_at" DESC, "id" DESC LIMIT ${size} OFFSET ${query.offset}`,
        params,
      ) as Promise<{ id: string; total: number }[]>,
      this.dataSource.query(
        `WITH "matched" AS (${matched})
         SELECT "tag", count(*)::int AS "count" FROM "matched", unnest("tags") AS "tag"
         GROUP BY "tag" ORDER BY "count" DESC, "tag" COLLATE "C" LIMIT 10`,
        params,
      ) as Promise<{ tag: string; count: number }[]>,
    ]);
    const total = page[0]?.total ?? (await this.count(matched, params));
    return { ids: page.map((row) => Number(row.id)), total, tagStats: stats };
  }

  async searchUsers(keyword: string, offset: number, limit: number): Promise<UserHits> {
    const matched = `SELECT "id", "fans_count",
        (CASE WHEN lower("user_id") = lower($1) THEN ${WEIGHTS.userId} ELSE 0 END + CASE WHEN "nickname" ILIKE $2 THEN ${WEIGHTS.nickname} ELSE 0 END) AS "score"
      FROM "users" WHERE "registered" AND NOT "deleted" AND (lower("user_id") = lower($1) OR "nickname" ILIKE $2)`;
    const params = [keyword, `%${likeLiteral(keyword)}%`];
    const size = offset >= MAX_RESULT_WINDOW ? 0 : Math.min(limit, MAX_RESULT_WINDOW - offset);
    const page: { id: string; total: number }[] = await this.dataSource.query(
      `WITH "matched" AS (${matched})
       SELECT "id", (SELECT count(*) FROM "matched")::int AS "total" FROM "matched"
       ORDER BY "score" DESC, "fans_count" DESC, "id" DESC LIMIT ${size} OFFSET ${offset}`,
      params,
    );
    return { ids: page.map((row) => Number(row.id)), total: page[0]?.total ?? (await this.count(matched, params)) };
  }

  async suggest(prefix: string, limit: number): Promise<Suggestion[]> {
    const pattern = `${likeLiteral(prefix)}%`;
    const [tags, users, titles] = await Promise.all([
      this.dataSource.query(
        `SELECT "tag" FROM "posts", unnest("tags") AS "tag" WHERE "published" AND NOT "deleted" AND "tag" LIKE $1
         GROUP BY "tag" ORDER BY count(*) DESC, "tag" COLLATE "C" LIMIT $2`,
        [pattern, limit],
      ) as Promise<{ tag: string }[]>,
      this.dataSource.query(
        `SELECT "nickname", "user_id" FROM "users" WHERE "registered" AND NOT "deleted" AND "nickname" LIKE $1 ORDER BY "fans_count" DESC, "id" DESC LIMIT $2`,
        [pattern, limit],
      ) as Promise<{ nickname: string; user_id: string }[]>,
      this.dataSource.query(
        `SELECT "id", "title" FROM "posts" WHERE "published" AND NOT "deleted" AND "title" LIKE $1 ORDER BY "like_count" DESC, "created_at" DESC, "id" DESC LIMIT $2`,
        [pattern, limit],
      ) as Promise<{ id: string; title: string }[]>,
    ]);
    return mergeSuggestions(tags.map((row) => row.tag), users, titles.map((row) => ({ id: String(row.id), title: row.title })), limit);
  }

  /** The total when the page asked for lies past the last match. */
  private async count(matched: string, params: unknown[]): Promise<number> {
    const [row]: { total: number }[] = await this.dataSource.query(`SELECT count(*)::int AS "total" FROM (${matched}) AS "m"`, params);
    return row.total;
  }
}
