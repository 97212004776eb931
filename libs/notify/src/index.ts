import type { ServiceDefinition } from '@shiliu/platform';
import { AdminActions1764100000000 } from './migrations/1764100000000-admin-actions';
import { NotifyTables1764000000000 } from './migrations/1764000000000-notify-tables';
import { NotificationTitles1764500000000 } from './migrations/1764500000000-notification-titles';
import { NotificationGroups1765000000000 } from './migrations/1765000000000-notification-groups';
import { NotifyModule } from './notify.module';

export const notifyService: ServiceDefinition = {
  name: 'notify',
  module: NotifyModule,
  entities: [],
  migrations: [NotifyTables1764000000000, AdminActions1764100000000, NotificationTitles1764500000000, NotificationGroups1765000000000],
  readModels: [
    { table: 'users', follows: ['user'] },
    { table: 'posts', follows: ['post'] },
  ],
};
