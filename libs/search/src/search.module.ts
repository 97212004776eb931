import { Inject, Injectable, Module, type OnApplicationShutdown, type Type } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CachedSearchEngine } from './engine/cached-engine';
import { createElasticsearchClient, ElasticsearchEngine } from './engine/elasticsearch.engine';
import { IndexChanges } from './engine/index-changes';
import { Indexer } from './engine/indexer.service';
import { PostgresEngine } from './engine/postgres.engine';
import { SEARCH_ENGINE, type SearchEngine } from './engine/search-engine';
import { BackfillNoteWhenPostIsAnnounced } from './posts/backfill-note-when-post-is-announced.handler';
import { CountCommentsWhenCommentChanges } from './posts/count-comments-when-comment-changes.handler';
import { IndexNoteWhenPostIsPublished } from './posts/index-note-when-post-is-published.handler';
import { NoteCounts } from './posts/note-counts';
import { PostRepository } from './posts/post.repository';
import { RecordCollectionWhenPostIsCollected } from './posts/record-collection-when-post-is-collected.handler';
import { RecordLikeWhenPostIsLiked } from './posts/record-like-when-post-is-liked.handler';
import { RemoveNoteWhenPostIsDeleted } from './posts/remove-note-when-post-is-deleted.handler';
import { loadSearchConfig, SEARCH_CONFIG, type SearchConfig } from './search.config';
import { SearchController } from './search.controller';
import { SearchService } from './search.service';
import { IndexUserWhenUserChanges } from './users/index-user-when-user-changes.handler';
import { RecordFollowWhenUserIsFollowed } from './users/record-follow-when-user-is-followed.handler';
import { RemoveUserWhenUserIsDeleted } from './users/remove-user-when-user-is-deleted.handler';
import { UserRepository } from './users/user.repository';
import { ViewerStateRepository } from './viewers/viewer-state.repository';

/**
 * How long an answer asked before a change showed is kept: a small share of the second a write already waits for
 * Elasticsearch's refresh, which spares the cluster the repetitions of a popular question even while notes change.
 */
const SETTLING_MS = 250;

function createEngine(config: SearchConfig, dataSource: DataSource): SearchEngine {
  // PostgreSQL shows a write at once, and nobody waits a refresh for it: its answers are never kept.
  if (config.SEARCH_ENGINE === 'postgres') return new PostgresEngine(dataSource);
  const engine = new ElasticsearchEngine(createElasticsearchClient(config.ELASTICSEARCH_URL!), {
    url: config.ELASTICSEARCH_URL!,
    prefix: config.SEARCH_INDEX_PREFIX,
    analyzer: config.SEARCH_ANALYZER,
    refreshOnWrite: config.SEARCH_REFRESH_ON_WRITE,
  });
  return config.SEARCH_REFRESH_ON_WRITE || config.SEARCH_CACHE_MS === 0 ? engine : new CachedSearchEngine(engine, { quietMs: config.SEARCH_CACHE_MS, settlingMs: SETTLING_MS });
}

/** Closes the Elasticsearch client with the application. */
@Injectable()
class EngineLifecycle implements OnApplicationShutdown {
  constructor(@Inject(SEARCH_ENGINE) private readonly engine: SearchEngine) {}

  async onApplicationShutdown(): Promise<void> {
    await this.engine.close?.();
  }
}

/**
 * The search service (DESIGN.md §1) with its settings: read from the environment when it starts, or given (tests
 * run both engines in one process).
 */
export function searchModule(settings?: Partial<NodeJS.ProcessEnv>): Type {
  @Module({
    controllers: [
      SearchController,
      IndexNoteWhenPostIsPublished,
      BackfillNoteWhenPostIsAnnounced,
      RemoveNoteWhenPostIsDeleted,
      RecordLikeWhenPostIsLiked,
      RecordCollectionWhenPostIsCollected,
      CountCommentsWhenCommentChanges,
      IndexUserWhenUserChanges,
      RemoveUserWhenUserIsDeleted,
      RecordFollowWhenUserIsFollowed,
    ],
    providers: [
      { provide: SEARCH_CONFIG, useFactory: () => loadSearchConfig(settings ? { ...process.env, ...settings } : process.env) },
      { provide: SEARCH_ENGINE, useFactory: createEngine, inject: [SEARCH_CONFIG, DataSource] },
      EngineLifecycle,
      IndexChanges,
      Indexer,
      NoteCounts,
      PostRepository,
      SearchService,
      UserRepository,
      ViewerStateRepository,
    ],
  })
  class SearchModule {}
  return SearchModule;
}

export const SearchModule = searchModule();
