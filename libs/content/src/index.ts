import { BannedWordCopy1764810000000, type ServiceDefinition } from '@shiliu/platform';
import { ContentModule } from './content.module';
import { ContentTables1763790000000 } from './migrations/1763790000000-content-tables';
import { ImageDetails1763810000000 } from './migrations/1763810000000-image-details';
import { ViewsOffTheRowLock1763900000000 } from './migrations/1763900000000-views-off-the-row-lock';
import { ReadCacheNotices1764000000000 } from './migrations/1764000000000-read-cache-notices';
import { ReadCacheTagNotices1764200000000 } from './migrations/1764200000000-read-cache-tag-notices';
import { ReactionFunction1764300000000 } from './migrations/1764300000000-reaction-function';
import { ViewCountNotices1764400000000 } from './migrations/1764400000000-view-count-notices';
import { TapsCommitWithoutFlush1764500000000 } from './migrations/1764500000000-taps-commit-without-flush';
import { RemovedAuthors1764610000000 } from './migrations/1764610000000-removed-authors';
import { FollowGraph1764700000000 } from './migrations/1764700000000-follow-graph';
import { CategoryRecommend1764800000000 } from './migrations/1764800000000-category-recommend';
import { RelatedNotes1765000000000 } from './migrations/1765000000000-related-notes';
import { seedDemoContent } from './seed/demo-seed';

export const contentService: ServiceDefinition = {
  name: 'content',
  module: ContentModule,
  entities: [],
  migrations: [ContentTables1763790000000, ImageDetails1763810000000, ViewsOffTheRowLock1763900000000, ReadCacheNotices1764000000000, ReadCacheTagNotices1764200000000, ReactionFunction1764300000000, ViewCountNotices1764400000000, TapsCommitWithoutFlush1764500000000, RemovedAuthors1764610000000, FollowGraph1764700000000, CategoryRecommend1764800000000, BannedWordCopy1764810000000, RelatedNotes1765000000000],
  seed: seedDemoContent,
  readModels: [
    { table: 'authors', follows: ['user'] },
    { table: 'follows', follows: ['follow'] },
    { table: 'banned_word_copy', follows: ['banned-words'] },
  ],
};

export { defaultCategories } from './migrations/1763790000000-content-tables';
export { detailQuery, feedQueries, rankingQuery, shownNotes, viewerFlags, type FeedFilter, type FeedOrder, type SqlStatement } from './posts/post.repository';
