// `DATABASE_URL=… ELASTICSEARCH_URL=… npx nx run @shiliu/search:reindex [-- <schema>]`: rebuilds the notes and users
// indices from this service's read model with a progress bar, then swaps each alias, while search keeps answering
// (the schema defaults to `search`; SEARCH_INDEX_PREFIX and SEARCH_ANALYZER as the service has them).
import { createServiceDataSource, loadConfig, url } from '@shiliu/platform';
import { createElasticsearchClient, type IndexKind } from '../engine/elasticsearch.engine';
import { reindex } from '../engine/reindex';
import { loadSearchConfig } from '../search.config';

const schema = process.argv[2] ?? 'search';
const WIDTH = 30;

function bar(kind: IndexKind, done: number, total: number): void {
  const share = total === 0 ? 1 : done / total;
  const filled = Math.round(share * WIDTH);
  process.stderr.write(`\r${kind.padEnd(5)} [${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${String(Math.round(share * 100)).padStart(3)}% ${done}/${total}`);
  if (done === total) process.stderr.write('\n');
}

async function main(): Promise<void> {
  const config = loadSearchConfig({ ...process.env, SEARCH_ENGINE: 'elasticsearch' });
  const dataSource = createServiceDataSource({ url: loadConfig({ DATABASE_URL: url() }).DATABASE_URL, schema, entities: [], migrations: [], poolSize: 2 });
  await dataSource.initialize();
  const client = createElasticsearchClient(config.ELASTICSEARCH_URL!);
  try {
    for (const kind of ['posts', 'users'] as const) {
      const index = await reindex(kind, { client, dataSource, prefix: config.SEARCH_INDEX_PREFIX, analyzer: config.SEARCH_ANALYZER, progress: bar });
      console.log(`${kind}: the alias now points at ${index}`);
    }
  } finally {
    await client.close();
    await dataSource.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
