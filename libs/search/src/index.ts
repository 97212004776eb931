import type { ServiceDefinition } from '@shiliu/platform';
import { SearchTables1764100000000 } from './migrations/1764100000000-search-tables';
import { SearchPostsByAuthor1764200000000 } from './migrations/1764200000000-search-posts-by-author';
import { searchModule, SearchModule } from './search.module';

const migrations = [SearchTables1764100000000, SearchPostsByAuthor1764200000000];
const readModels: ServiceDefinition['readModels'] = [
  { table: 'users', follows: ['user'] },
  { table: 'posts', follows: ['post'] },
  { table: 'follows', follows: ['follow'] },
];

export const searchService: ServiceDefinition = { name: 'search', module: SearchModule, entities: [], migrations, readModels };

/** The search service with settings of its own rather than the environment's (tests, the re-index command). */
export function searchServiceWith(settings: Partial<NodeJS.ProcessEnv>): ServiceDefinition {
  return { ...searchService, module: searchModule(settings) };
}
