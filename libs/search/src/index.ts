import type { ServiceDefinition } from '@shiliu/platform';
import { SearchModule } from './search.module';

export const searchService: ServiceDefinition = {
  name: 'search',
  module: SearchModule,
  entities: [],
  migrations: [],
};
