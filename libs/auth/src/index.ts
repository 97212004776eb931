import type { ServiceDefinition } from '@shiliu/platform';
import { AuthModule } from './auth.module';

export const authService: ServiceDefinition = {
  name: 'auth',
  module: AuthModule,
  entities: [],
  migrations: [],
};
