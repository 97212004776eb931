import type { ServiceApp } from './create-service-app';
import type { DemoSize } from './service-definition';

/**
 * Runs each service's demo-data seed once per database, in order, publishing each seed's events before the
 * next seed starts so that read models built from them are in place.
 */
export async function runSeeds(services: ServiceApp[], size: DemoSize, log: (message: string) => void): Promise<void> {
  for (const service of services) {
    const { seed, name } = service.definition;
    if (!seed) continue;
    const done: unknown[] = await service.dataSource.query(`SELECT 1 FROM "seed_runs" WHERE "name" = 'demo'`);
    if (done.length > 0) continue;
    log(`loading demo data: ${name}`);
    await seed(service.app, size);
    await service.dataSource.query(`INSERT INTO "seed_runs" ("name") VALUES ('demo')`);
    for (const each of services) await each.relay.flush();
  }
}
