#!/usr/bin/env node
// Feed benchmark (issue 4): 100,000 notes by 10,000 users in a database of its own; the content service and the
// gateway as separate processes in distributed mode (Kafka, Redis, MinIO from infra/local); autocannon at 50
// connections against the recommend feed, a category feed and note detail through the gateway, next to the same
// SQL run directly against PostgreSQL (same pool size as the service, same concurrency) in the same run.
//
// Usage: infra/local/up && node bench/feed/run.mjs [seconds per case, default 15]
// Not part of `npm test`: it takes a few minutes and the machine to itself.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { benchEnv, freshDatabase, root, start, stopAll, tokenKeys, waitFor } from '../lib.mjs';

const seconds = Number(process.argv[2] ?? 15);
const CONNECTIONS = 50;
const POOL_SIZE = 10; // the service's default pool (createServiceApp)
const NOTES = 100_000;
const USERS = 10_000;
const CONTENT_PORT = 3192;
const GATEWAY_PORT = 8092;

const env = benchEnv();

// 1. A fresh database, the service (which migrates it), then the data.
const databaseUrl = await freshDatabase(env, 'shiliu_feed_bench');

const keys = tokenKeys();
const serviceEnv = { DATABASE_URL: databaseUrl, PORT: String(CONTENT_PORT), AUTH_PUBLIC_KEY_FILE: join(keys, 'token-public.pem') };
start(env, 'content', 'apps/content/src/main.ts', serviceEnv);
await waitFor(`http://127.0.0.1:${CONTENT_PORT}/health/ready`, "the content service");

const db = new pg.Client({ connectionString: databaseUrl, options: '-c search_path=content,public' });
await db.connect();
console.log(`generating ${USERS} users and ${NOTES} notes…`);
let t = Date.now();
await db.query(`INSERT INTO "authors" ("id", "user_id", "nickname", "avatar", "location", "verified")
  SELECT g, 'bench_' || g, '同学' || g, '/api/files/avatars/' || (g % 50) || '.png', '上海', (g % 20 = 0)::int FROM generate_series(1, ${USERS}) g`);
await db.query(`INSERT INTO "tags" ("name", "use_count") SELECT '标签' || g, 0 FROM generate_series(1, 500) g`);
await db.query(`INSERT INTO "posts" ("author_id", "title", "content", "content_text", "category_id", "type", "images", "cover_url",
    "like_count", "collect_count", "comment_count", "view_count", "created_at", "updated_at")
  SELECT 1 + (g * 7919) % ${USERS}, '校园笔记第' || g || '篇：今天的图书馆', '<p>这是第' || g || '篇笔记的正文，记录了校园生活的一天。</p>', '这是第' || g || '篇笔记的正文，记录了校园生活的一天。',
    1 + g % 8, 1, jsonb_build_array(jsonb_build_object('url', '/api/files/bench/' || (g % 100) || '.jpg', 'width', 600, 'height', 800)),
    '/api/files/bench/' || (g % 100) || '.jpg', (random() ^ 3 * 500)::int, (random() ^ 3 * 100)::int, (random() ^ 3 * 50)::int, (random() * 2000)::int, ts, ts
  FROM (SELECT g, now() - random() * interval '180 days' AS ts FROM generate_series(1, ${NOTES}) g) s`);
await db.query(`INSERT INTO "post_tags" ("post_id", "tag_id", "position") SELECT "id", 1 + ("id" * 31) % 500, 1 FROM "posts"`);
await db.query(`INSERT INTO "post_tags" ("post_id", "tag_id", "position") SELECT "id", 1 + ("id" * 17 + 250) % 500, 2 FROM "posts" WHERE "id" % 3 = 0 ON CONFLICT DO NOTHING`);
await db.query(`UPDATE "tags" t SET "use_count" = (SELECT count(*) FROM "post_tags" pt WHERE pt."tag_id" = t."id")`);
await db.query('VACUUM ANALYZE');
const [{ min, max }] = (await db.query('SELECT min("id")::int AS min, max("id")::int AS max FROM "posts"')).rows;
console.log(`generated in ${((Date.now() - t) / 1000).toFixed(1)} s`);
await db.end();

// The gateway serves the web app too; an empty page stands in for the build.
writeFileSync(join(keys, 'index.html'), '<!doctype html><div id="root"></div>');
start(env, 'gateway', 'apps/gateway/src/main.ts', {
  PORT: String(GATEWAY_PORT),
  ...Object.fromEntries(['AUTH', 'CONTENT', 'SOCIAL', 'NOTIFY', 'SEARCH', 'MEDIA'].map((name) => [`${name}_URL`, `http://127.0.0.1:${CONTENT_PORT}`])),
  RATE_LIMIT_PER_MINUTE: '1000000000',
  WEB_DIST_DIR: keys,
});
await waitFor(`http://127.0.0.1:${GATEWAY_PORT}/api/health`, 'the gateway');

// 2. The statements the service runs per call, straight from its source.
const queries = JSON.parse(
  execFileSync(process.execPath, ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', join(root, 'bench/feed/queries.ts')], {
    cwd: root,
    env: { ...env, TS_NODE_PROJECT: join(root, 'tsconfig.base.json') },
  }).toString(),
);
const randomId = () => min + Math.floor(Math.random() * (max - min + 1));

const cases = [
  {
    name: 'recommend feed',
    path: () => '/api/posts?limit=20',
    sql: (client) => Promise.all([client.query(queries.recommend.page.sql, snapshotNow(queries.recommend.page.params, 2)), client.query(queries.recommend.total.sql, snapshotNow(queries.recommend.total.params, 1))]),
  },
  {
    name: 'category feed (food)',
    path: () => '/api/posts?category=food&limit=20',
    sql: (client) => Promise.all([client.query(queries.category.page.sql, snapshotNow(queries.category.page.params, 2)), client.query(queries.category.total.sql, snapshotNow(queries.category.total.params, 1))]),
  },
  {
    name: 'note detail',
    path: () => `/api/posts/${randomId()}`,
    // Counting the view writes no row (it is marked in Redis and flushed in batches), so the detail is one read.
    sql: (client) => client.query(queries.detail.sql, [null, randomId()]),
  },
];

/** The API takes the snapshot at request time; so does the direct side. */
function snapshotNow(params, index) {
  const copy = [...params];
  copy[index] = new Date();
  return copy;
}

async function direct(run) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: POOL_SIZE, options: '-c search_path=content,public' });
  const latencies = [];
  const deadline = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (Date.now() < deadline) {
        const started = process.hrtime.bigint();
        const client = await pool.connect();
        try {
          await run(client);
        } finally {
          client.release();
        }
        latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
      }
    }),
  );
  await pool.end();
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
  return { rps: latencies.length / seconds, p50: at(0.5), p99: at(0.99) };
}

async function api(path) {
  const result = await autocannon({
    url: `http://127.0.0.1:${GATEWAY_PORT}`,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: path() }) }],
  });
  if (result.non2xx > 0 || result.errors > 0) console.warn(`  ! ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

const rows = [];
for (const each of cases) {
  process.stdout.write(`${each.name}: warming up… `);
  await autocannon({ url: `http://127.0.0.1:${GATEWAY_PORT}`, connections: 10, duration: 3, requests: [{ method: 'GET', setupRequest: (r) => ({ ...r, path: each.path() }) }] });
  process.stdout.write('API… ');
  const viaApi = await api(each.path);
  process.stdout.write('direct SQL…\n');
  const viaSql = await direct(each.sql);
  rows.push({ each, viaApi, viaSql });
}

const f = (n, digits = 1) => n.toFixed(digits).padStart(8);
console.log(`\n${NOTES} notes, ${USERS} users; ${CONNECTIONS} connections, ${seconds} s per case; direct SQL through a pool of ${POOL_SIZE} like the service\n`);
console.log('case                    |  API rps  p50 ms  p99 ms |  SQL rps  p50 ms  p99 ms | rps ratio  p99 ratio | target (≥40%, <4×)');
for (const { each, viaApi, viaSql } of rows) {
  const ratio = viaApi.rps / viaSql.rps;
  const p99Ratio = viaApi.p99 / viaSql.p99;
  const ok = ratio >= 0.4 && p99Ratio < 4 ? 'met' : 'NOT met';
  console.log(
    `${each.name.padEnd(23)} |${f(viaApi.rps)}${f(viaApi.p50)}${f(viaApi.p99)} |${f(viaSql.rps)}${f(viaSql.p50)}${f(viaSql.p99)} | ${f(ratio * 100, 0)}%  ${f(p99Ratio, 2)}× | ${ok}`,
  );
}
await stopAll();
process.exit(0);
