import type { ServiceDefinition } from '@shiliu/platform';
import { MediaModule } from './media.module';

export const mediaService: ServiceDefinition = {
  name: 'media',
  module: MediaModule,
  entities: [],
  migrations: [],
};
