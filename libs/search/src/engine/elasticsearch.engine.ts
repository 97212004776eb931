import { Client, errors } from '@elastic/elasticsearch';
import type { estypes } from '@elastic/elasticsearch';
import {
  MAX_RESULT_WINDOW,
  type PostDocument,
  type PostHits,
  type PostQuery,
  type SearchEngine,
  SearchUnavailableError,
  type Suggestion,
  type UserDocument,
  type UserHits,
  WEIGHTS,
  mergeSuggestions,
} from './search-engine';

export type IndexKind = 'posts' | 'users';

export interface ElasticsearchOptions {
  url: string;
  prefix: string;
  analyzer: string;
  refreshOnWrite: boolean;
}

/** Every index's refresh interval: a write is searchable within it (CachedSearchEngine counts on it). */
export const REFRESH_MS = 1000;

/** The alias searches and writes go through; a re-index builds a new index behind it and swaps it in. */
export function aliasOf(prefix: string, kind: IndexKind): string {
  return `${prefix}-${kind}`;
}

/** Explicit mappings: nothing is indexed that search does not use, and an unknown field is refused. */
export function indexBody(kind: IndexKind, analyzer: string): estypes.IndicesCreateRequest['mappings'] {
  const text = { type: 'text' as const, analyzer };
  if (kind === 'posts') {
    return {
      dynamic: 'strict',
      properties: {
        id: { type: 'long' },
        title: { ...text, fields: { raw: { type: 'keyword', ignore_above: 256 } } },
        content: text,
        tags: { type: 'keyword' },
        type: { type: 'byte' },
        like_count: { type: 'integer' },
        created_at: { type: 'date' },
      },
    };
  }
  return {
    dynamic: 'strict',
    properties: {
      id: { type: 'long' },
      user_id: { type: 'keyword' },
      nickname: { ...text, fields: { raw: { type: 'keyword', ignore_above: 256 } } },
      fans_count: { type: 'integer' },
    },
  };
}

export function createElasticsearchClient(url: string): Client {
  return new Client({ node: url, maxRetries: 1, requestTimeout: 5000 });
}

/** Creates a concrete index of one kind; an index of that name already there (another replica made it) is fine. */
export async function createIndex(client: Client, name: string, kind: IndexKind, analyzer: string, alias?: string): Promise<void> {
  await client.indices.create(
    { index: name, mappings: indexBody(kind, analyzer), settings: { number_of_shards: 1, refresh_interval: `${REFRESH_MS}ms` }, aliases: alias ? { [alias]: {} } : undefined },
    { ignore: [400] },
  );
}

/** Whether a failure means the cluster is out of reach or overloaded, rather than a request it refuses. */
export function isUnavailable(error: unknown): boolean {
  if (error instanceof errors.ConnectionError || error instanceof errors.TimeoutError || error instanceof errors.NoLivingConnectionsError) return true;
  return error instanceof errors.ResponseError && (error.statusCode === 429 || (error.statusCode ?? 0) >= 500);
}

/** Lucene regular expressions treat many characters as syntax; each is taken literally here. */
function literalRegex(text: string): string {
  return text.replace(/[^\p{L}\p{N}]/gu, (char) => `\\${char}`);
}

const scored = (query: estypes.QueryDslQueryContainer, boost: number): estypes.QueryDslQueryContainer => ({ constant_score: { filter: query, boost } });

/** Notes and users in Elasticsearch, through one alias each (distributed mode). */
export class ElasticsearchEngine implements SearchEngine {
  private ready: Promise<void> | null = null;

  constructor(private readonly client: Client, private readonly options: ElasticsearchOptions) {}

  private get posts(): string {
    return aliasOf(this.options.prefix, 'posts');
  }

  private get users(): string {
    return aliasOf(this.options.prefix, 'users');
  }

  async indexPost(document: PostDocument): Promise<void> {
    const { seq, ...source } = document;
    await this.write(() => this.client.index({ index: this.posts, id: String(document.id), document: source, version: seq, version_type: 'external_gte', refresh: this.refresh }, { ignore: [409] }));
  }

  async removePost(id: number, seq: number): Promise<void> {
    await this.write(() => this.client.delete({ index: this.posts, id: String(id), version: seq, version_type: 'external_gte', refresh: this.refresh }, { ignore: [404, 409] }));
  }

  async indexUser(document: UserDocument): Promise<void> {
    const { seq, ...source } = document;
    await this.write(() => this.client.index({ index: this.users, id: String(document.id), document: source, version: seq, version_type: 'external_gte', refresh: this.refresh }, { ignore: [409] }));
  }

  async removeUser(id: number, seq: number): Promise<void> {
    await this.write(() => this.client.delete({ index: this.users, id: String(id), version: seq, version_type: 'external_gte', refresh: this.refresh }, { ignore: [404, 409] }));
  }

  async searchPosts(query: PostQuery): Promise<PostHits> {
    const filter: estypes.QueryDslQueryContainer[] = [];
    if (query.tag !== null) filter.push({ term: { tags: query.tag } });
    if (query.kind !== 'all') filter.push({ term: { type: query.kind === 'videos' ? 2 : 1 } });
    const must = query.terms.map((term) => ({
      bool: {
        should: [scored({ match_phrase: { title: term } }, WEIGHTS.title), scored({ match_phrase: { content: term } }, WEIGHTS.content), scored({ term: { tags: term } }, WEIGHTS.tag)],
        minimum_should_match: 1,
      },
    }));
    const result = await this.read(() =>
      this.client.search({
        index: this.posts,
        query: { bool: { filter, must } },
        sort: [{ _score: { order: 'desc' } }, { like_count: 'desc' }, { created_at: 'desc' }, { id: 'desc' }],
        ...this.window(query.offset, query.limit),
        track_total_hits: true,
        _source: false,
        aggs: { tags: { terms: { field: 'tags', size: 10 } } },
      }),
    );
    const buckets = (result.aggregations?.tags as estypes.AggregationsStringTermsAggregate | undefined)?.buckets;
    return {
      ids: result.hits.hits.map((hit) => Number(hit._id)),
      total: totalOf(result.hits.total),
      tagStats: Array.isArray(buckets) ? buckets.map((bucket) => ({ tag: String(bucket.key), count: bucket.doc_count })) : [],
    };
  }

  async searchUsers(keyword: string, offset: number, limit: number): Promise<UserHits> {
    const result = await this.read(() =>
      this.client.search({
        index: this.users,
        query: {
          bool: {
            should: [scored({ term: { user_id: { value: keyword, case_insensitive: true } } }, WEIGHTS.userId), scored({ match_phrase: { nickname: keyword } }, WEIGHTS.nickname)],
            minimum_should_match: 1,
          },
        },
        sort: [{ _score: { order: 'desc' } }, { fans_count: 'desc' }, { id: 'desc' }],
        ...this.window(offset, limit),
        track_total_hits: true,
        _source: false,
      }),
    );
    return { ids: result.hits.hits.map((hit) => Number(hit._id)), total: totalOf(result.hits.total) };
  }

  async suggest(prefix: string, limit: number): Promise<Suggestion[]> {
    const result = await this.read(() =>
      this.client.msearch<{ title?: string; user_id?: string; nickname?: string }>({
        searches: [
          { index: this.posts },
          { size: 0, query: { prefix: { tags: prefix } }, aggs: { tags: { terms: { field: 'tags', size: limit, include: `${literalRegex(prefix)}.*` } } } },
          { index: this.users },
          { size: limit, query: { prefix: { 'nickname.raw': prefix } }, sort: [{ fans_count: 'desc' }, { id: 'desc' }], _source: ['nickname', 'user_id'] },
          { index: this.posts },
          { size: limit, query: { prefix: { 'title.raw': prefix } }, sort: [{ like_count: 'desc' }, { created_at: 'desc' }, { id: 'desc' }], _source: ['title'] },
        ],
      }),
    );
    const [tags, users, titles] = result.responses.map((response) => {
      if ('error' in response) throw new SearchUnavailableError(response.error);
      return response;
    });
    const buckets = (tags.aggregations?.tags as estypes.AggregationsStringTermsAggregate | undefined)?.buckets;
    return mergeSuggestions(
      Array.isArray(buckets) ? buckets.map((bucket) => String(bucket.key)) : [],
      users.hits.hits.map((hit) => ({ nickname: hit._source?.nickname ?? '', user_id: hit._source?.user_id ?? '' })),
      titles.hits.hits.map((hit) => ({ id: String(hit._id), title: hit._source?.title ?? '' })),
      limit,
    );
  }

  /** Both aliases, each over a first index, once per process; tried again after a failure (the cluster was down). */
  ensureIndices(): Promise<void> {
    this.ready ??= (async () => {
      for (const kind of ['posts', 'users'] as const) {
        const alias = aliasOf(this.options.prefix, kind);
        if (await this.client.indices.existsAlias({ name: alias })) continue;
        await createIndex(this.client, `${alias}-1`, kind, this.options.analyzer, alias);
      }
    })().catch((error: unknown) => {
      this.ready = null;
      throw error;
    });
    return this.ready;
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  private get refresh(): boolean {
    return this.options.refreshOnWrite;
  }

  private window(offset: number, limit: number): { from: number; size: number } {
    return offset >= MAX_RESULT_WINDOW ? { from: 0, size: 0 } : { from: offset, size: Math.min(limit, MAX_RESULT_WINDOW - offset) };
  }

  private async write(request: () => Promise<unknown>): Promise<void> {
    await this.read(request);
  }

  private async read<T>(request: () => Promise<T>): Promise<T> {
    try {
      await this.ensureIndices();
      return await request();
    } catch (error) {
      throw isUnavailable(error) ? new SearchUnavailableError(error) : error;
    }
  }
}

function totalOf(total: number | estypes.SearchTotalHits | undefined): number {
  if (total === undefined) return 0;
  return typeof total === 'number' ? total : total.value;
}
