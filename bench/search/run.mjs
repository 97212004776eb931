#!/usr/bin/env node
// Search benchmark (issue 13): 100,000 notes by 10,000 users in a database and an index prefix of their own; the
// search service and the gateway as separate processes in distributed mode (Elasticsearch, Kafka, Redis, MinIO
// from infra/local); autocannon at 20 connections through the gateway against keyword search, tag search and
// suggestions, then publish-to-searchable: note publications sent to Kafka as content sends them, each timed until
// the gateway's search finds it.
//
// The read model is filled with SQL and indexed by the re-index command (which the run times too), as the feed
// benchmark fills content's tables: generating 100,000 notes through events would measure Kafka, not search.
//
// Usage: infra/local/up && npm run build && node bench/search/run.mjs [seconds per case, default 15] [notes, default 100000]
// CASES=keyword,tag runs only the query cases whose names contain one of those words (publish to searchable always runs).
// The service and the gateway run from the build, as a deployment runs them.
// Not part of `npm test`: it takes a few minutes and the machine to itself.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { Kafka, logLevel } from 'kafkajs';
import pg from 'pg';
import { benchEnv, cpuSecondsOf, freshDatabase, infraPid, root, start, stopAll, tokenKeys, waitFor } from '../lib.mjs';

const seconds = Number(process.argv[2] ?? 15);
const NOTES = Number(process.argv[3] ?? 100_000);
const USERS = Math.max(100, Math.round(NOTES / 10));
const CONNECTIONS = 20;
const PUBLICATIONS = 100;
const SEARCH_PORT = 3195;
const GATEWAY_PORT = 8095;
const DATABASE = 'shiliu_search_bench';
const PREFIX = 'shiliu-search-bench';
const TOPIC_PREFIX = `${DATABASE}.${Date.now()}.`;
const WORDS = ['野餐', '自习', '图书馆', '食堂', '篮球', '摄影', '考研', '社团', '宿舍', '银杏', '跑步', '咖啡', '吉他', '电影', '旅行', '美食', '穿搭', '实习', '论文', '猫咪'];

const env = benchEnv(['DATABASE_URL', 'KAFKA_BROKERS', 'REDIS_URL', 'S3_ENDPOINT', 'S3_ACCESS_KEY', 'S3_SECRET_KEY', 'ELASTICSEARCH_URL']);
const searchEnv = { SEARCH_ENGINE: 'elasticsearch', SEARCH_INDEX_PREFIX: PREFIX, ELASTICSEARCH_URL: env.ELASTICSEARCH_URL };

// 1. A fresh database and indices, the service (which migrates the database), then the data.
const databaseUrl = await freshDatabase(env, DATABASE);
await fetch(`${env.ELASTICSEARCH_URL}/${PREFIX}-*`, { method: 'DELETE' });

const keys = tokenKeys();
const searchProcess = start(env, 'search', 'apps/search/dist/main.js', {
  ...searchEnv,
  DATABASE_URL: databaseUrl,
  PORT: String(SEARCH_PORT),
  METRICS_PORT: '0',
  KAFKA_TOPIC_PREFIX: TOPIC_PREFIX,
  AUTH_PUBLIC_KEY_FILE: join(keys, 'token-public.pem'),
});
await waitFor(`http://127.0.0.1:${SEARCH_PORT}/health/ready`, 'the search service');

const db = new pg.Client({ connectionString: databaseUrl, options: '-c search_path=search,public' });
await db.connect();
console.log(`generating ${USERS} users and ${NOTES} notes…`);
let t = Date.now();
const words = `(ARRAY[${WORDS.map((word) => `'${word}'`).join(',')}])`;
await db.query(`INSERT INTO "users" ("id", "user_id", "nickname", "registered", "as_of", "fans_count", "seq")
  SELECT g, 'bench_' || g, ${words}[1 + g % 20] || '同学' || g, true, now(), (random() ^ 3 * 300)::int, nextval('changes') FROM generate_series(1, ${USERS}) g`);
await db.query(`INSERT INTO "posts" ("id", "author_id", "author_user_id", "title", "content_text", "type", "tags", "images", "created_at", "published", "as_of", "like_count", "seq")
  SELECT g, a, 'bench_' || a, w[1 + g % 20] || '和' || w[1 + (g * 7) % 20] || '的第' || g || '篇笔记',
    '今天和朋友一起去' || w[1 + (g * 13) % 20] || '，记录校园生活的一天。', 1 + (g % 5 = 0)::int,
    ARRAY[w[1 + (g * 3) % 20], '标签' || (1 + (g * 31) % 500)], ARRAY['/api/files/bench/' || (g % 100) || '.jpg'],
    now() - random() * interval '180 days', true, now(), (random() ^ 3 * 500)::int, nextval('changes')
  FROM (SELECT g, 1 + (g * 7919) % ${USERS} AS a, ${words} AS w FROM generate_series(1, ${NOTES}) g) s`);
await db.query('VACUUM ANALYZE');
console.log(`generated in ${((Date.now() - t) / 1000).toFixed(1)} s; indexing with the re-index command…`);
t = Date.now();
execFileSync(process.execPath, [join(root, 'libs/search/dist/cli/reindex.main.js'), 'search'], {
  cwd: root,
  env: { ...env, ...searchEnv, DATABASE_URL: databaseUrl },
  stdio: 'inherit',
});
const reindexSeconds = (Date.now() - t) / 1000;
await db.end();

writeFileSync(join(keys, 'index.html'), '<!doctype html><div id="root"></div>');
const gatewayProcess = start(env, 'gateway', 'apps/gateway/dist/main.js', {
  PORT: String(GATEWAY_PORT),
  ...Object.fromEntries(['AUTH', 'CONTENT', 'SOCIAL', 'NOTIFY', 'SEARCH', 'MEDIA'].map((name) => [`${name}_URL`, `http://127.0.0.1:${SEARCH_PORT}`])),
  RATE_LIMIT_PER_MINUTE: '1000000000',
  WEB_DIST_DIR: keys,
});
await waitFor(`http://127.0.0.1:${GATEWAY_PORT}/api/health`, 'the gateway');

// 2. Queries at 20 connections through the gateway.
const pick = (list) => list[Math.floor(Math.random() * list.length)];
const q = (text) => encodeURIComponent(text);
const cases = [
  { name: 'keyword search', path: () => `/api/search?type=all&keyword=${q(pick(WORDS))}` },
  { name: 'two-word search', path: () => `/api/search?keyword=${q(`${pick(WORDS)} ${pick(WORDS)}`)}` },
  { name: 'tag search', path: () => `/api/search?tag=${q(`标签${1 + Math.floor(Math.random() * 500)}`)}` },
  { name: 'suggest', path: () => `/api/search/suggest?keyword=${q(pick(WORDS).slice(0, 1 + Math.floor(Math.random() * 2)))}` },
];

async function api(path) {
  const result = await autocannon({
    url: `http://127.0.0.1:${GATEWAY_PORT}`,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: path() }) }],
  });
  if (result.non2xx > 0 || result.errors > 0) console.warn(`  ! ${result.non2xx} non-2xx answers (${JSON.stringify(result.statusCodeStats)}), ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

/** Searches Elasticsearch has run so far (each search of a multi-search counts). */
async function clusterQueries() {
  const stats = await (await fetch(`${env.ELASTICSEARCH_URL}/_nodes/stats/indices/search`)).json();
  return Object.values(stats.nodes).reduce((sum, node) => sum + node.indices.search.query_total, 0);
}

// Where each case's CPU went: the two services, the cluster, PostgreSQL and this process (autocannon).
const measured = { search: searchProcess.pid, gateway: gatewayProcess.pid, elasticsearch: infraPid('elasticsearch'), postgres: infraPid('postgres'), autocannon: process.pid };
const watched = Object.fromEntries(Object.entries(measured).filter(([, pid]) => pid));

const rows = [];
const wanted = process.env.CASES?.split(',').map((word) => word.trim()).filter(Boolean);
for (const each of cases.filter(({ name }) => !wanted || wanted.some((word) => name.includes(word)))) {
  process.stdout.write(`${each.name}: warming up… `);
  await autocannon({ url: `http://127.0.0.1:${GATEWAY_PORT}`, connections: 5, duration: 3, requests: [{ method: 'GET', setupRequest: (r) => ({ ...r, path: each.path() }) }] });
  process.stdout.write('measuring… ');
  const before = cpuSecondsOf(watched);
  const queriesBefore = await clusterQueries();
  const result = await api(each.path);
  const queries = (await clusterQueries()) - queriesBefore;
  const after = cpuSecondsOf(watched);
  const cpu = before ? Object.keys(watched).map((name) => `${name} ${(after[name] - before[name]).toFixed(1)}`).join(', ') : 'not measured';
  console.log(`${result.rps.toFixed(0)} rps, p50 ${result.p50} ms, p99 ${result.p99} ms; ${queries} queries reached Elasticsearch; CPU s: ${cpu}`);
  rows.push({ each, result });
}

// 3. Publish to searchable: notes published one at a time as content publishes them (post.published on Kafka),
// each polled through the gateway every 20 ms until search finds it, so the polling adds no load of its own.
const kafka = new Kafka({ clientId: 'shiliu-search-bench', brokers: env.KAFKA_BROKERS.split(','), logLevel: logLevel.NOTHING });
const producer = kafka.producer();
await producer.connect();
const delays = [];
process.stdout.write(`publishing ${PUBLICATIONS} notes one at a time… `);
for (let i = 0; i < PUBLICATIONS; i++) {
  const id = NOTES + 1 + i;
  const marker = `基准${randomUUID().replace(/-/g, '').slice(0, 8)}`;
  const envelopeId = randomUUID();
  const post = {
    id, author_id: 1, author_user_id: 'bench_1', title: `${marker} 新发布的笔记`, content_text: '', category_id: 1, category_title: 'study',
    type: 1, tags: [], images: [], cover_url: null, video_url: null, created_at: new Date().toISOString(),
  };
  const envelope = { id: envelopeId, type: 'post.published', version: 1, occurredAt: new Date().toISOString(), actor: '1', correlationId: envelopeId, causationId: envelopeId, payload: { post } };
  const sent = performance.now();
  await producer.send({ topic: `${TOPIC_PREFIX}shiliu.post`, messages: [{ key: String(id), value: JSON.stringify(envelope), headers: { 'event-type': envelope.type, 'correlation-id': envelopeId } }] });
  for (;;) {
    const answer = await fetch(`http://127.0.0.1:${GATEWAY_PORT}/api/search/posts?keyword=${q(marker)}`);
    if (answer.ok && (await answer.json()).data.posts.length > 0) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  delays.push(performance.now() - sent);
}
await producer.disconnect();
delays.sort((a, b) => a - b);
const at = (share) => delays[Math.min(delays.length - 1, Math.floor(share * delays.length))];

const f = (n, digits = 1) => n.toFixed(digits).padStart(8);
console.log(`\n${NOTES} notes, ${USERS} users; ${CONNECTIONS} connections, ${seconds} s per case; re-index of both indices took ${reindexSeconds.toFixed(1)} s\n`);
console.log('case                |     rps  p50 ms  p99 ms | target p99');
for (const { each, result } of rows) {
  const target = each.name === 'suggest' ? 50 : 100;
  console.log(`${each.name.padEnd(19)} |${f(result.rps)}${f(result.p50)}${f(result.p99)} | < ${target} ms ${result.p99 < target ? 'met' : 'NOT met'}`);
}
console.log(`publish → searchable |  ${PUBLICATIONS} notes${f(at(0.5))}${f(at(0.99))} | < 2000 ms ${at(0.99) < 2000 ? 'met' : 'NOT met'}`);
await fetch(`${env.ELASTICSEARCH_URL}/${PREFIX}-*`, { method: 'DELETE' });
await stopAll();
process.exit(0);
