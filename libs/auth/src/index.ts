import { BannedWordCopy1764810000000, type ServiceDefinition } from '@shiliu/platform';
import { AuthModule } from './auth.module';
import { AuthTables1763790000000 } from './migrations/1763790000000-auth-tables';
import { AuthAdminBackOffice1764100000000 } from './migrations/1764100000000-admin-back-office';
import { AuthUserLikeCounts1764300000000 } from './migrations/1764300000000-user-like-counts';
import { AuthBannedWords1764800000000 } from './migrations/1764800000000-banned-words';
import { seedDemoUsers } from './seed/demo-users.seed';

export { DEMO_PASSWORD } from './seed/demo-users.seed';
export { VerificationService } from './verification/verification.service';
export { UsersService } from './users/users.service';

export const authService: ServiceDefinition = {
  name: 'auth',
  module: AuthModule,
  entities: [],
  migrations: [AuthTables1763790000000, AuthAdminBackOffice1764100000000, AuthUserLikeCounts1764300000000, AuthBannedWords1764800000000, BannedWordCopy1764810000000],
  readModels: [
    { table: 'user_counters', follows: ['follow'] },
    { table: 'post_likes', follows: ['post'] },
    { table: 'banned_word_copy', follows: ['banned-words'] },
  ],
  seed: seedDemoUsers,
};
