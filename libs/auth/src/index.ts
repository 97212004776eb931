import type { ServiceDefinition } from '@shiliu/platform';
import { AdminEntity } from './admins/admin.entity';
import { AuthModule } from './auth.module';
import { AuthTables1763790000000 } from './migrations/1763790000000-auth-tables';
import { seedDemoUsers } from './seed/demo-users.seed';
import { UserEntity } from './users/user.entity';
import { VerificationApplicationEntity } from './verification/verification-application.entity';

export { DEMO_PASSWORD } from './seed/demo-users.seed';
export { VerificationService } from './verification/verification.service';
export { UsersService } from './users/users.service';

export const authService: ServiceDefinition = {
  name: 'auth',
  module: AuthModule,
  entities: [UserEntity, AdminEntity, VerificationApplicationEntity],
  migrations: [AuthTables1763790000000],
  seed: seedDemoUsers,
};
