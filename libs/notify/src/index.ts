import type { ServiceDefinition } from '@shiliu/platform';
import { NotifyTables1764000000000 } from './migrations/1764000000000-notify-tables';
import { NotifyModule } from './notify.module';

export const notifyService: ServiceDefinition = {
  name: 'notify',
  module: NotifyModule,
  entities: [],
  migrations: [NotifyTables1764000000000],
  readModels: [
    { table: 'users', follows: ['user'] },
    { table: 'posts', follows: ['post'] },
  ],
};
