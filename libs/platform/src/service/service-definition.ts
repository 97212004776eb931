import type { INestApplicationContext, Type } from '@nestjs/common';
import type { AnnouncedEntity } from '@shiliu/contracts';

export type ServiceName = 'auth' | 'content' | 'social' | 'notify' | 'search' | 'media';
export const serviceNames: readonly ServiceName[] = ['auth', 'content', 'social', 'notify', 'search', 'media'];

/** What a service library hands the platform: its Nest module and its tables. */
export interface ServiceDefinition {
  name: ServiceName;
  /** The service's own Nest module: controllers, providers and @EventPattern handlers. */
  module: Type;
  entities: Function[];
  migrations: Function[];
  /**
   * Demo data for the embedded default's first start; runs once per data directory, in the order the services
   * are listed, each after the events of the ones before it have been handled (content's seed finds the users
   * that auth's seed registered in its own author snapshot). It gets the service's application to use its own
   * domain services, so demo data goes through the same rules and events as real data.
   */
  seed?: (app: INestApplicationContext, size: DemoSize) => Promise<void>;
  /** Tables this service fills from other services' events; each one found empty at start-up asks for a backfill. */
  readModels?: ReadModel[];
}

/** How much demo data to load: the full set by default, fewer notes where a start must be quick (the browser tests). */
export interface DemoSize {
  notes: number;
}

/** A table kept from other services' events, and the entities whose owners re-announce them to fill it. */
export interface ReadModel {
  table: string;
  follows: AnnouncedEntity[];
}
