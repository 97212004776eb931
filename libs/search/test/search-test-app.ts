import { randomUUID } from 'node:crypto';
import { Client } from '@elastic/elasticsearch';
import { postPublished, type PostSnapshot } from '@shiliu/contracts';
import { requireEnv, ServiceTestApp } from '@shiliu/platform/testing';
import { searchServiceWith } from '../src';

export type { Answer, TestUser } from '@shiliu/platform/testing';

export type EngineName = 'elasticsearch' | 'postgres';

/**
 * The search service as every service's tests start one, on either engine: Elasticsearch under an index prefix of
 * its own (runs never meet; its indices go with it), each write searchable before it returns.
 */
export class SearchTestApp extends ServiceTestApp {
  engine: EngineName = 'postgres';
  prefix = '';
  private postSeq = 0;

  static async start(engine: EngineName): Promise<SearchTestApp> {
    const prefix = `shiliu-t-${randomUUID().slice(0, 8)}`;
    const elasticsearchUrl = engine === 'elasticsearch' ? requireEnv('ELASTICSEARCH_URL') : undefined;
    const app = new SearchTestApp(
      await ServiceTestApp.boot(
        searchServiceWith({ SEARCH_ENGINE: engine, ELASTICSEARCH_URL: elasticsearchUrl, SEARCH_INDEX_PREFIX: prefix, SEARCH_REFRESH_ON_WRITE: 'true' }),
      ),
    );
    app.engine = engine;
    app.prefix = prefix;
    return app;
  }

  override async close(): Promise<void> {
    await super.close();
    if (this.engine !== 'elasticsearch') return;
    const client = new Client({ node: requireEnv('ELASTICSEARCH_URL') });
    await client.indices.delete({ index: `${this.prefix}-*` }, { ignore: [404] });
    await client.close();
  }

  /** A published note's snapshot as content would announce it. */
  snapshot(author: { id: number; userId: string }, overrides: Partial<PostSnapshot> = {}): PostSnapshot {
    const id = 7000 + ++this.postSeq;
    return {
      id,
      author_id: author.id,
      author_user_id: author.userId,
      title: `笔记${id}`,
      content_text: '',
      category_id: 1,
      category_title: 'study',
      type: 1,
      tags: [],
      images: [`/api/files/images/${id}.png`],
      cover_url: null,
      video_url: null,
      created_at: new Date().toISOString(),
      ...overrides,
    };
  }

  /** Publishes a note as content would; answers its snapshot. */
  async publish(author: { id: number; userId: string }, overrides: Partial<PostSnapshot> = {}, occurredAt?: Date): Promise<PostSnapshot> {
    const post = this.snapshot(author, overrides);
    await this.deliver(postPublished.type, { post }, occurredAt);
    return post;
  }
}
