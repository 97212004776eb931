import type { Type } from '@nestjs/common';
import type { DataSource } from 'typeorm';

export type ServiceName = 'auth' | 'content' | 'social' | 'notify' | 'search' | 'media';
export const serviceNames: readonly ServiceName[] = ['auth', 'content', 'social', 'notify', 'search', 'media'];

/** What a service library hands the platform: its Nest module and its tables. */
export interface ServiceDefinition {
  name: ServiceName;
  /** The service's own Nest module: controllers, providers and @EventPattern handlers. */
  module: Type;
  entities: Function[];
  migrations: Function[];
  /** Demo data for the embedded default's first start; runs once per data directory. */
  seed?: (dataSource: DataSource) => Promise<void>;
}
