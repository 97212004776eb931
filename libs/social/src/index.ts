import type { ServiceDefinition } from '@shiliu/platform';
import { SocialTables1763820000000 } from './migrations/1763820000000-social-tables';
import { seedDemoFollows } from './seed/demo-follows.seed';
import { SocialModule } from './social.module';

export const socialService: ServiceDefinition = {
  name: 'social',
  module: SocialModule,
  entities: [],
  migrations: [SocialTables1763820000000],
  seed: seedDemoFollows,
  readModels: [
    { table: 'user_cards', follows: ['user'] },
    { table: 'posts', follows: ['post'] },
  ],
};

export { UserStatsRepository, type Drift } from './stats/user-stats.repository';
