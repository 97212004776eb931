import type { ServiceDefinition } from '@shiliu/platform';
import { SocialModule } from './social.module';

export const socialService: ServiceDefinition = {
  name: 'social',
  module: SocialModule,
  entities: [],
  migrations: [],
};
