import type { ServiceDefinition } from '@shiliu/platform';
import { MediaModule } from './media.module';
import { MediaTables1763800000000 } from './migrations/1763800000000-media-tables';

export const mediaService: ServiceDefinition = {
  name: 'media',
  module: MediaModule,
  entities: [],
  migrations: [MediaTables1763800000000],
};
export { runMediaWorker } from './videos/media-worker';
