import type { ServiceDefinition } from '@shiliu/platform';
import { ContentModule } from './content.module';

export const contentService: ServiceDefinition = {
  name: 'content',
  module: ContentModule,
  entities: [],
  migrations: [],
};
