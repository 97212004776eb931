// `DATABASE_URL=… npx nx run @shiliu/social:reconcile [-- <schema>]`: recounts every user's counters from the follows
// and the notes this service knows, prints each drift it finds and fixes it (the schema defaults to `social`).
import { createServiceDataSource, loadConfig, url } from '@shiliu/platform';
import { counterNames, UserStatsRepository } from '../stats/user-stats.repository';

const schema = process.argv[2] ?? 'social';

async function main(): Promise<void> {
  const dataSource = createServiceDataSource({ url: loadConfig({ DATABASE_URL: url() }).DATABASE_URL, schema, entities: [], migrations: [], poolSize: 1 });
  await dataSource.initialize();
  try {
    const drifts = await dataSource.transaction((manager) => new UserStatsRepository().reconcile(manager));
    for (const { user_id, stored, recounted } of drifts) {
      const changes = counterNames.filter((name) => stored[name] !== recounted[name]).map((name) => `${name} ${stored[name]} → ${recounted[name]}`);
      console.log(`user ${user_id}: ${changes.join(', ')}`);
    }
    console.log(`${schema}: ${drifts.length} user(s) drifted${drifts.length > 0 ? ', fixed' : ''}`);
  } finally {
    await dataSource.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
