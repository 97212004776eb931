import type { ServiceDefinition } from '@shiliu/platform';
import { MediaModule } from './media.module';
import { mediaMigrations } from './migrations/media-migrations';

export const mediaService: ServiceDefinition = {
  name: 'media',
  module: MediaModule,
  entities: [],
  migrations: mediaMigrations,
};
export { runMediaWorker } from './videos/media-worker';
