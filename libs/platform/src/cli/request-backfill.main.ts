// `npx nx run @shiliu/platform:request-backfill -- <service> [user,post]`: the service's read models receive the
// current state of every entity they follow again (see libs/platform/README.md, "Read models and backfill").
import { type AnnouncedEntity, announcedEntities } from '@shiliu/contracts';
import { loadConfig, url } from '../config/config';
import { createServiceDataSource } from '../database/data-source';
import { requestBackfill } from '../events/backfill';

const [service, list] = process.argv.slice(2);
const entities = (list ?? announcedEntities.join(',')).split(',') as AnnouncedEntity[];
if (!service || entities.some((entity) => !announcedEntities.includes(entity))) {
  console.error(`usage: request-backfill <service> [${announcedEntities.join(',')}]`);
  process.exit(2);
}

async function main(): Promise<void> {
  const dataSource = createServiceDataSource({ url: loadConfig({ DATABASE_URL: url() }).DATABASE_URL, schema: service, entities: [], migrations: [], poolSize: 1 });
  await dataSource.initialize();
  try {
    await requestBackfill(dataSource, service, entities);
    console.log(`${service}: backfill of ${entities.join(', ')} requested; the owners re-announce them through their outboxes`);
  } finally {
    await dataSource.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
