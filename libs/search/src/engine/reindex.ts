import type { Client } from '@elastic/elasticsearch';
import type { DataSource } from 'typeorm';
import { isSearchable, postDocument } from '../posts/post.repository';
import { isFindable, userDocument } from '../users/user.repository';
import { aliasOf, createIndex, type IndexKind, REFRESH_MS } from './elasticsearch.engine';
import { announceIndexChange } from './index-changes';
import { type ReadModelRow, ReindexSourceRepository } from './reindex-source.repository';

const BATCH = 1000;
/** Longer than a write to Elasticsearch may take (the client's timeout), so a change whose write reached the old index before the swap has committed by then. */
const SETTLE_MS = 6000;

export interface ReindexOptions {
  client: Client;
  dataSource: DataSource;
  prefix: string;
  analyzer: string;
  /** Called as rows are copied, for a progress bar. */
  progress?: (kind: IndexKind, done: number, total: number) => void;
  /** Called once the bulk copy is done, before the alias moves (tests make changes there). */
  beforeSwap?: (kind: IndexKind) => Promise<void>;
  settleMs?: number;
}

interface Source {
  toWrite: (row: ReadModelRow) => { id: number; seq: number; document?: object };
}

const SOURCES: Record<IndexKind, Source> = {
  posts: {
    toWrite: (row) => {
      const { seq, ...document } = postDocument(row);
      return { id: Number(row.id), seq, document: isSearchable(row) ? document : undefined };
    },
  },
  users: {
    toWrite: (row) => {
      const { seq, ...document } = userDocument(row);
      return { id: Number(row.id), seq, document: isFindable(row) ? document : undefined };
    },
  },
};

/**
 * Rebuilds one index from this service's read model while search keeps answering from the old one: a new index
 * is filled, the alias moves to it in one step, then every change made since the copy began is applied to it
 * (external versions keep a change applied twice, or late, from undoing a newer one), and the old index goes.
 * Answers the new index's name.
 */
export async function reindex(kind: IndexKind, options: ReindexOptions): Promise<string> {
  const { client } = options;
  const source = SOURCES[kind];
  const rows = new ReindexSourceRepository(options.dataSource, kind);
  const alias = aliasOf(options.prefix, kind);
  const index = `${alias}-${Date.now()}`;
  const last = await rows.lastChange();
  const total = await rows.countIndexed();

  await createIndex(client, index, kind, options.analyzer);
  await client.indices.putSettings({ index, settings: { refresh_interval: '-1' } });
  let done = 0;
  let after = '0';
  options.progress?.(kind, 0, total);
  for (;;) {
    const batch = await rows.indexedAfter(after, BATCH);
    if (batch.length === 0) break;
    await write(client, index, batch.map(source.toWrite));
    after = String(batch.at(-1)!.id);
    done += batch.length;
    options.progress?.(kind, done, total);
  }
  await client.indices.putSettings({ index, settings: { refresh_interval: `${REFRESH_MS}ms` } });
  await client.indices.refresh({ index });
  await options.beforeSwap?.(kind);

  const previous = (await client.indices.existsAlias({ name: alias })) ? Object.keys(await client.indices.getAlias({ name: alias })) : [];
  await client.indices.updateAliases({ actions: [...previous.map((name) => ({ remove: { index: name, alias } })), { add: { index, alias } }] });

  let since = last;
  for (const wait of [0, options.settleMs ?? SETTLE_MS]) {
    await new Promise((resolve) => setTimeout(resolve, wait));
    since = await catchUp(client, rows, index, source, since);
  }
  await client.indices.refresh({ index });
  // The new index may answer differently (a new analyzer, the changes caught up): answers kept until now are stale.
  await announceIndexChange(options.dataSource, (options.dataSource.options as { schema: string }).schema);
  if (previous.length > 0) await client.indices.delete({ index: previous });
  return index;
}

/** Applies every change with a `seq` after `since` to `index`; answers the last `seq` applied. */
async function catchUp(client: Client, rows: ReindexSourceRepository, index: string, source: Source, since: string): Promise<string> {
  let last = since;
  for (;;) {
    const batch = await rows.changedAfter(last, BATCH);
    if (batch.length === 0) return last;
    await write(client, index, batch.map(source.toWrite));
    last = String(batch.at(-1)!.seq);
  }
}

/** One bulk request: a document indexed, or deleted when the row is no longer searchable, each at its row's version. */
async function write(client: Client, index: string, writes: { id: number; seq: number; document?: object }[]): Promise<void> {
  const operations = writes.flatMap(({ id, seq, document }) =>
    document
      ? [{ index: { _index: index, _id: String(id), version: seq, version_type: 'external_gte' as const } }, document]
      : [{ delete: { _index: index, _id: String(id), version: seq, version_type: 'external_gte' as const } }],
  );
  const result = await client.bulk({ operations });
  if (!result.errors) return;
  const failed = result.items.map((item) => Object.values(item)[0]).filter((outcome) => outcome.error && outcome.status !== 409 && outcome.status !== 404);
  if (failed.length > 0) throw new Error(`re-index: ${failed.length} write(s) refused, the first: ${JSON.stringify(failed[0].error)}`);
}
