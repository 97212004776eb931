import { randomUUID } from 'node:crypto';
import { Client } from '@elastic/elasticsearch';
import { postPublished, type PostSnapshot } from '@shiliu/contracts';
import { postSnapshot, requireEnv, ServiceTestApp } from '@shiliu/platform/testing';
import { searchServiceWith } from '../src';

export { type Answer, postSnapshot, type TestUser } from '@shiliu/platform/testing';

export type EngineName = 'elasticsearch' | 'postgres';

/**
 * The search service as every service's tests start one, on either engine: Elasticsearch under an index prefix of
 * its own (runs never meet; its indices go with it), each write searchable before it returns.
 */
export class SearchTestApp extends ServiceTestApp {
  engine: EngineName = 'postgres';
  prefix = '';

  static async start(engine: EngineName, env: Record<string, string> = {}): Promise<SearchTestApp> {
    const prefix = `shiliu-t-${randomUUID().slice(0, 8)}`;
    const elasticsearchUrl = engine === 'elasticsearch' ? requireEnv('ELASTICSEARCH_URL') : undefined;
    const app = new SearchTestApp(
      await ServiceTestApp.boot(
        searchServiceWith({ SEARCH_ENGINE: engine, ELASTICSEARCH_URL: elasticsearchUrl, SEARCH_INDEX_PREFIX: prefix, SEARCH_REFRESH_ON_WRITE: 'true', ...env }),
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

  /** Publishes a note as content would; answers its snapshot. */
  async publish(author: { id: number; userId: string }, overrides: Partial<PostSnapshot> = {}, occurredAt?: Date): Promise<PostSnapshot> {
    const post = postSnapshot(author, overrides);
    await this.deliver(postPublished.type, { post }, occurredAt);
    return post;
  }
}
