import type { ServiceDefinition } from '@shiliu/platform';
import { NotifyModule } from './notify.module';

export const notifyService: ServiceDefinition = {
  name: 'notify',
  module: NotifyModule,
  entities: [],
  migrations: [],
};
