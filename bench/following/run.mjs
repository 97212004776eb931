#!/usr/bin/env node
// 关注 feed benchmark (issue 39): 100,000 students in content's read models, written by SQL in a database of its
// own; the content service built, as its own process in distributed mode. It measures
//   1. the 关注 feed's first page for students who follow 2,000 accounts each, through HTTP (autocannon) and as the
//      service's own statements straight against PostgreSQL;
//   2. one note by an account with 50,000 followers: the publish call, the rows it wrote, and how long until each of
//      a sample of its followers reads it at the top of their feed;
//   3. in the same run, what fan-out on write would cost instead: one inbox row per follower, written when the note
//      is published and removed when it is deleted, and reading a page from those inboxes.
//
// Usage: infra/local/up && npm run build && node bench/following/run.mjs [seconds per HTTP case, default 10]
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { importPKCS8, SignJWT } from 'jose';
import * as Minio from 'minio';
import pg from 'pg';
import sharp from 'sharp';
import { benchEnv, freshDatabase, percentile, root, start, stopAll, timed, tokenKeys, waitFor } from '../lib.mjs';

const seconds = Number(process.argv[2] ?? 10);
const STUDENTS = 100_000;
const NOTES = 300_000;
/** Background follows: each student follows this many others. */
const FOLLOWS_EACH = 10;
const CELEBRITY = 1;
const CELEBRITY_FANS = 50_000;
/** Students 2 … 21 follow 2,000 accounts each (and the celebrity, as students 2 … 50,001 all do). */
const HEAVY = Array.from({ length: 20 }, (_, i) => 2 + i);
const HEAVY_FOLLOWS = 2_000;
const SAMPLED_FANS = 200;
const CONNECTIONS = 10;
const CONTENT_PORT = 3193;
const DATABASE = 'shiliu_following_bench';

const env = benchEnv();
const databaseUrl = await freshDatabase(env, DATABASE);
const keys = tokenKeys();
start(env, 'content', 'apps/content/dist/main.js', {
  DATABASE_URL: databaseUrl,
  PORT: String(CONTENT_PORT),
  AUTH_PUBLIC_KEY_FILE: join(keys, 'token-public.pem'),
  KAFKA_TOPIC_PREFIX: `${DATABASE}.`,
});
await waitFor(`http://127.0.0.1:${CONTENT_PORT}/health/ready`, 'the content service');

const db = new pg.Client({ connectionString: databaseUrl, options: '-c search_path=content,public' });
await db.connect();
console.log(`generating ${STUDENTS} students, ${NOTES} notes, ${FOLLOWS_EACH} follows each, ${HEAVY.length} students following ${HEAVY_FOLLOWS}, one with ${CELEBRITY_FANS} fans…`);
await timed('authors', () => db.query(`INSERT INTO "authors" ("id", "user_id", "nickname", "avatar", "location", "verified")
  SELECT g, 'bench_' || g, '同学' || g, '/api/files/avatars/' || (g % 50) || '.png', '上海', 0 FROM generate_series(1, ${STUDENTS}) g`));
await timed('notes', () => db.query(`INSERT INTO "posts" ("author_id", "title", "content", "content_text", "category_id", "type", "images", "cover_url", "created_at", "updated_at")
  SELECT 1 + (g::bigint * 7919) % ${STUDENTS}, '校园笔记第' || g || '篇', '<p>第' || g || '篇</p>', '第' || g || '篇', 1 + g % 8, 1,
    jsonb_build_array(jsonb_build_object('url', '/api/files/bench/' || (g % 100) || '.jpg', 'width', 600, 'height', 800)), '/api/files/bench/' || (g % 100) || '.jpg', ts, ts
  FROM (SELECT g, now() - random() * interval '180 days' AS ts FROM generate_series(1, ${NOTES}) g) s`));
await timed('follows', async () => {
  await db.query(`INSERT INTO "follows" ("follower_id", "following_id", "active", "as_of")
    SELECT g, 1 + (g + k * 7307) % ${STUDENTS}, true, now() FROM generate_series(1, ${STUDENTS}) g, generate_series(1, ${FOLLOWS_EACH}) k
    WHERE 1 + (g + k * 7307) % ${STUDENTS} <> g ON CONFLICT DO NOTHING`);
  await db.query(`INSERT INTO "follows" ("follower_id", "following_id", "active", "as_of")
    SELECT g, ${CELEBRITY}, true, now() FROM generate_series(2, ${CELEBRITY_FANS + 1}) g ON CONFLICT DO NOTHING`);
  // 104,729 is prime to 100,000: k ↦ k·104,729 mod 100,000 never repeats, so each heavy student follows 2,000 distinct accounts.
  await db.query(`INSERT INTO "follows" ("follower_id", "following_id", "active", "as_of")
    SELECT v, 1 + (v * 7919 + k * 104729) % ${STUDENTS}, true, now() FROM unnest($1::bigint[]) v, generate_series(1, ${HEAVY_FOLLOWS - 1}) k
    WHERE 1 + (v * 7919 + k * 104729) % ${STUDENTS} <> v ON CONFLICT DO NOTHING`, [HEAVY]);
  await db.query(`INSERT INTO "fans_counts" ("user_id", "fans_count", "as_of") SELECT "following_id", count(*), now() FROM "follows" GROUP BY 1`);
});
await timed('VACUUM ANALYZE', () => db.query('VACUUM ANALYZE'));
const followCounts = (await db.query(`SELECT count(*)::int AS n FROM "follows" WHERE "follower_id" = ANY($1::bigint[]) GROUP BY "follower_id"`, [HEAVY])).rows.map((row) => row.n);
const feedSizes = (await db.query(`SELECT count(*)::int AS n FROM "posts" p JOIN "follows" f ON f."following_id" = p."author_id" WHERE f."follower_id" = ANY($1::bigint[]) AND NOT p."is_draft" GROUP BY f."follower_id"`, [HEAVY])).rows.map((row) => row.n);
console.log(`heavy students follow ${Math.min(...followCounts)}-${Math.max(...followCounts)} accounts; their feeds hold ${Math.min(...feedSizes)}-${Math.max(...feedSizes)} notes`);

const privateKey = await importPKCS8(readFileSync(join(keys, 'token-private.pem'), 'utf8'), 'EdDSA');
const tokenOf = (id) => new SignJWT({ uid: `bench_${id}`, sid: randomUUID() }).setProtectedHeader({ alg: 'EdDSA' }).setSubject(String(id)).setIssuer('shiliu-auth').setAudience('shiliu-user').setIssuedAt().setExpirationTime('2h').sign(privateKey);
const heavyTokens = await Promise.all(HEAVY.map(tokenOf));
const base = `http://127.0.0.1:${CONTENT_PORT}`;
const feedOf = async (token, query = '') => {
  const answer = await fetch(`${base}/api/posts?category=following&limit=20${query}`, { headers: { authorization: `Bearer ${token}` } });
  if (!answer.ok) throw new Error(`feed answered ${answer.status}: ${await answer.text()}`);
  return (await answer.json()).data;
};

// 1. The feed through HTTP, first page and fifth, students picked at random.
async function http(query) {
  const run = (duration, connections) =>
    autocannon({
      url: base,
      connections,
      duration,
      requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: `/api/posts?category=following&limit=20${query}`, headers: { authorization: `Bearer ${heavyTokens[Math.floor(Math.random() * heavyTokens.length)]}` } }) }],
    });
  await run(3, 2);
  const result = await run(seconds, CONNECTIONS);
  if (result.non2xx > 0 || result.errors > 0) console.warn(`  ! ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}
console.log('\nHTTP, page 1…');
const page1 = await http('');
console.log('HTTP, page 5…');
const page5 = await http('&page=5');

// The same statements straight against PostgreSQL, one at a time (the floor of one call).
const { following, cards } = JSON.parse(
  execFileSync(process.execPath, ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', join(root, 'bench/following/queries.ts')], {
    cwd: root,
    env: { ...env, TS_NODE_PROJECT: join(root, 'tsconfig.base.json') },
  }).toString(),
);
const withViewer = (statement, viewer) => statement.params.map((value) => (value === '0' ? viewer : value));
async function sequential(run, rounds = 400) {
  const latencies = [];
  for (let i = 0; i < rounds; i++) {
    const viewer = HEAVY[i % HEAVY.length];
    const started = process.hrtime.bigint();
    await run(viewer);
    latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return { p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99) };
}
console.log('direct SQL, fan-out on read (the service\'s page and total)…');
const readSql = await sequential((viewer) => Promise.all([db.query(following.page.sql, withViewer(following.page, viewer)), db.query(following.total.sql, withViewer(following.total, viewer))]));

// 3. Fan-out on write, for comparison: an inbox row per follower and note, the heavy students' inboxes filled.
await db.query(`CREATE TABLE "bench_inbox" ("viewer_id" bigint NOT NULL, "created_at" timestamptz NOT NULL, "post_id" bigint NOT NULL, PRIMARY KEY ("viewer_id", "created_at", "post_id"))`);
await db.query(`CREATE INDEX "bench_inbox_post" ON "bench_inbox" ("post_id")`);
await db.query(`INSERT INTO "bench_inbox" SELECT f."follower_id", p."created_at", p."id" FROM "follows" f JOIN "posts" p ON p."author_id" = f."following_id" AND NOT p."is_draft" WHERE f."follower_id" = ANY($1::bigint[])`, [HEAVY]);
await db.query('VACUUM ANALYZE "bench_inbox"');
console.log('direct SQL, fan-out on write (an inbox page of ids, its total, then the cards)…');
const inboxSql = await sequential(async (viewer) => {
  const [ids] = await Promise.all([
    db.query(`SELECT "post_id" FROM "bench_inbox" WHERE "viewer_id" = $1 ORDER BY "created_at" DESC, "post_id" DESC LIMIT 20`, [viewer]),
    db.query(`SELECT count(*)::int FROM "bench_inbox" WHERE "viewer_id" = $1`, [viewer]),
  ]);
  await db.query(cards, [null, ids.rows.map((row) => row.post_id)]);
});

// 2. One note by the account with 50,000 fans.
const storage = new URL(env.S3_ENDPOINT);
const minio = new Minio.Client({ endPoint: storage.hostname, port: Number(storage.port), useSSL: storage.protocol === 'https:', accessKey: env.S3_ACCESS_KEY, secretKey: env.S3_SECRET_KEY });
const imageKey = `images/bench-following/${randomUUID()}.png`;
const png = await sharp({ create: { width: 60, height: 80, channels: 3, background: '#88aacc' } }).png().toBuffer();
await minio.putObject('shiliu', imageKey, png, png.length, { 'Content-Type': 'image/png' });
const writes = async () => (await db.query(`SELECT coalesce(sum("n_tup_ins" + "n_tup_upd" + "n_tup_del"), 0)::int AS n FROM pg_stat_user_tables WHERE "schemaname" = 'content'`)).rows[0].n;
const celebrityToken = await tokenOf(CELEBRITY);
const fans = (await db.query(`SELECT "follower_id" FROM "follows" WHERE "following_id" = $1 AND "active" ORDER BY random() LIMIT $2`, [CELEBRITY, SAMPLED_FANS])).rows.map((row) => Number(row.follower_id));
const fanTokens = await Promise.all(fans.map(tokenOf));
const writesBefore = await writes();
const publishStarted = performance.now();
const published = await fetch(`${base}/api/posts`, {
  method: 'POST',
  headers: { authorization: `Bearer ${celebrityToken}`, 'content-type': 'application/json' },
  body: JSON.stringify({ title: '校园公告', content: '<p>明天图书馆闭馆</p>', category_id: 1, type: 1, images: [`/api/files/${imageKey}`], tags: [] }),
});
const publishMs = performance.now() - publishStarted;
if (!published.ok) throw new Error(`publish answered ${published.status}: ${await published.text()}`);
const noteId = (await published.json()).data.id;
const seenAfter = [];
let firstReadsShowing = 0;
await Promise.all(
  fanTokens.map(async (token, index) => {
    // Staggered over the sample, CONNECTIONS at a time, as readers would come.
    await new Promise((resolve) => setTimeout(resolve, Math.floor(index / CONNECTIONS) * 5));
    for (let attempt = 0; ; attempt++) {
      const page = await feedOf(token);
      if (page.posts[0]?.id === noteId) {
        if (attempt === 0) firstReadsShowing += 1;
        seenAfter.push(performance.now() - publishStarted);
        return;
      }
    }
  }),
);
// PostgreSQL reports a backend's row counts when its transaction ends, to the statistics within about a second.
let writesByNote = 0;
for (let tries = 0; tries < 40 && writesByNote === 0; tries++) {
  await new Promise((resolve) => setTimeout(resolve, 100));
  writesByNote = (await writes()) - writesBefore;
}

const inboxWriteStarted = performance.now();
const fanned = await db.query(`INSERT INTO "bench_inbox" SELECT "follower_id", now(), $2 FROM "follows" WHERE "following_id" = $1 AND "active"`, [CELEBRITY, noteId]);
const inboxWriteMs = performance.now() - inboxWriteStarted;
const inboxDeleteStarted = performance.now();
await db.query(`DELETE FROM "bench_inbox" WHERE "post_id" = $1`, [noteId]);
const inboxDeleteMs = performance.now() - inboxDeleteStarted;
await db.end();

const ms = (n) => `${n.toFixed(1)} ms`;
console.log(`\n${STUDENTS} students, ${NOTES} notes; ${HEAVY.length} students following ${HEAVY_FOLLOWS} accounts each; ${CONNECTIONS} connections, ${seconds} s per HTTP case\n`);
console.log('关注 feed, a student following 2,000          |   req/s |    p50 |    p99');
console.log(`HTTP to content, page 1                      | ${page1.rps.toFixed(0).padStart(7)} | ${ms(page1.p50).padStart(6)} | ${ms(page1.p99).padStart(6)}`);
console.log(`HTTP to content, page 5                      | ${page5.rps.toFixed(0).padStart(7)} | ${ms(page5.p50).padStart(6)} | ${ms(page5.p99).padStart(6)}`);
console.log(`SQL, fan-out on read (page + total)          |         | ${ms(readSql.p50).padStart(6)} | ${ms(readSql.p99).padStart(6)}`);
console.log(`SQL, fan-out on write (inbox + total + cards) |         | ${ms(inboxSql.p50).padStart(6)} | ${ms(inboxSql.p99).padStart(6)}`);
console.log(`\nOne note by the account with ${CELEBRITY_FANS} fans:`);
console.log(`  publish call: ${ms(publishMs)}; rows it wrote in content: ${writesByNote}`);
console.log(`  ${firstReadsShowing} of ${fans.length} sampled fans saw it first on their first read after the call; the last of them ${ms(Math.max(...seenAfter))} after the call began`);
console.log(`  fan-out on write instead: ${fanned.rowCount} inbox rows in ${ms(inboxWriteMs)}, and ${ms(inboxDeleteMs)} to take them out on deletion`);
await stopAll();
