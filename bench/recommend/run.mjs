#!/usr/bin/env node
// Personalised 推荐 benchmark (issue 39): an offline evaluation on a generated community, written by SQL into a
// database of its own; the built content service and gateway as their own processes in distributed mode.
//   1. 5,000 students with planted interests (two or three categories each, a favourite tag in each) and 50,000
//      notes; each student likes 30 notes, four in five of them in their interests and mostly popular ones.
//   2. For each student the last fifth of their likes (by time) is held out: taken out of `likes` and of the notes'
//      counters, as if it had not happened yet.
//   3. For a sample of students, their first page (20 notes) through the gateway with their token against the
//      engagement-only feed (the first page without a token): recall@20 and nDCG@20 of the held-out notes, and the
//      share of the page outside the student's planted categories.
//   4. The first page's latency through the gateway (autocannon), without a token and with the tokens of all
//      students picked at random (so most profiles are read afresh).
//
// Usage: infra/local/up && npm run build && node bench/recommend/run.mjs [seconds per HTTP case, default 10] [students evaluated, default 500]
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import { importPKCS8, SignJWT } from 'jose';
import pg from 'pg';
import { benchEnv, freshDatabase, start, stopAll, timed, tokenKeys, waitFor } from '../lib.mjs';

const seconds = Number(process.argv[2] ?? 10);
const SAMPLE = Number(process.argv[3] ?? 500);
const STUDENTS = 5_000;
const NOTES = 50_000;
const LIKES_EACH = 30;
/** Of a student's likes, the share in their interests, and of those the share with their favourite tag. */
const IN_INTERESTS = 0.8;
const FAVOURITE_TAG = 0.7;
const TAGS_PER_CATEGORY = 5;
const PAGE = 20;
const CONNECTIONS = 10;
/** Ports the system has free now: other engineers' benchmarks and stacks run on this machine too. */
const freePort = () =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
const CONTENT_PORT = await freePort();
const GATEWAY_PORT = await freePort();
const DATABASE = 'shiliu_recommend_bench';

const env = benchEnv();
const databaseUrl = await freshDatabase(env, DATABASE);
const keys = tokenKeys();
// Rankings kept from an earlier run would answer for notes that are not there.
const redis = new Redis(env.REDIS_URL);
await redis.flushdb();
redis.disconnect();
const common = { DATABASE_URL: databaseUrl, REDIS_URL: env.REDIS_URL, RATE_LIMIT_PER_MINUTE: '1000000000' };
start(env, 'content', 'apps/content/dist/main.js', { ...common, PORT: String(CONTENT_PORT), AUTH_PUBLIC_KEY_FILE: join(keys, 'token-public.pem'), KAFKA_TOPIC_PREFIX: `${DATABASE}.` });
await waitFor(`http://127.0.0.1:${CONTENT_PORT}/health/ready`, 'the content service');
const webDir = mkdtempSync(join(tmpdir(), 'shiliu-recommend-web-'));
writeFileSync(join(webDir, 'index.html'), '<!doctype html><div id="root"></div>');
start(env, 'gateway', 'apps/gateway/dist/main.js', {
  ...common,
  PORT: String(GATEWAY_PORT),
  ...Object.fromEntries(['AUTH', 'CONTENT', 'SOCIAL', 'NOTIFY', 'SEARCH', 'MEDIA'].map((name) => [`${name}_URL`, `http://127.0.0.1:${CONTENT_PORT}`])),
  WEB_DIST_DIR: webDir,
});
await waitFor(`http://127.0.0.1:${GATEWAY_PORT}/api/health`, 'the gateway');

const db = new pg.Client({ connectionString: databaseUrl, options: '-c search_path=content,public' });
await db.connect();
console.log(`generating ${STUDENTS} students with planted interests, ${NOTES} notes, ${LIKES_EACH} likes each…`);
await timed('students and tags', async () => {
  await db.query(`INSERT INTO "authors" ("id", "user_id", "nickname", "avatar", "location", "verified")
    SELECT g, 'bench_' || g, '同学' || g, '/api/files/avatars/' || (g % 50) || '.png', '上海', 0 FROM generate_series(1, ${STUDENTS}) g`);
  // Tag (c - 1) * 5 + t + 1 is the t-th of category c's five.
  await db.query(`INSERT INTO "tags" ("name") SELECT '分类' || c || '话题' || t FROM generate_series(1, 8) c, generate_series(0, ${TAGS_PER_CATEGORY - 1}) t ORDER BY c, t`);
  // Two categories each, a third for every other student: offsets 1-7 from the first, the third's never the second's.
  await db.query(`CREATE TABLE "bench_students" AS
    SELECT s AS "student", cats AS "categories", ARRAY(SELECT (c - 1) * ${TAGS_PER_CATEGORY} + (s * 7 + c) % ${TAGS_PER_CATEGORY} + 1 FROM unnest(cats) c) AS "tags"
    FROM (SELECT s, CASE WHEN s % 2 = 0 THEN ARRAY[c1, c2, c3] ELSE ARRAY[c1, c2] END AS cats
          FROM (SELECT s, 1 + s % 8 AS c1, 1 + (s % 8 + o2) % 8 AS c2, 1 + (s % 8 + 1 + (o2 + (s / 56) % 6) % 7) % 8 AS c3
                FROM (SELECT s, 1 + (s / 8) % 7 AS o2 FROM generate_series(1, ${STUDENTS}) s) a) b) c`);
});
await timed('notes', async () => {
  await db.query(`INSERT INTO "posts" ("author_id", "title", "content", "content_text", "category_id", "type", "images", "cover_url", "created_at", "updated_at")
    SELECT 1 + (g::bigint * 7919) % ${STUDENTS}, '校园笔记第' || g || '篇', '<p>第' || g || '篇</p>', '第' || g || '篇', 1 + g % 8, 1,
      jsonb_build_array(jsonb_build_object('url', '/api/files/bench/' || (g % 100) || '.jpg', 'width', 600, 'height', 800)), '/api/files/bench/' || (g % 100) || '.jpg', ts, ts
    FROM (SELECT g, now() - random() * interval '60 days' AS ts FROM generate_series(1, ${NOTES}) g) s`);
  await db.query(`INSERT INTO "post_tags" ("post_id", "tag_id", "position") SELECT "id", ("category_id" - 1) * ${TAGS_PER_CATEGORY} + ("id" * 31) % ${TAGS_PER_CATEGORY} + 1, 0 FROM "posts"`);
  // Each note's appeal; the pools list a category's notes (tag 0) and a tag's by appeal, most appealing first.
  await db.query(`CREATE TABLE "bench_appeal" AS SELECT "id", random() AS "appeal" FROM "posts"`);
  await db.query(`CREATE TABLE "bench_pools" AS
    SELECT p."category_id" AS "category", 0 AS "tag", array_agg(p."id" ORDER BY a."appeal" DESC) AS "ids" FROM "posts" p JOIN "bench_appeal" a USING ("id") GROUP BY 1
    UNION ALL
    SELECT p."category_id", pt."tag_id", array_agg(p."id" ORDER BY a."appeal" DESC) FROM "posts" p JOIN "post_tags" pt ON pt."post_id" = p."id" JOIN "bench_appeal" a USING ("id") GROUP BY 1, 2`);
});
await timed('likes', async () => {
  // Likes go mostly to the appealing notes of a pool (random()²), a day or two after the note came out.
  await db.query(`INSERT INTO "likes" ("user_id", "target_type", "target_id", "created_at")
    SELECT d."student", 1, p."id", least(now(), p."created_at" + random() * interval '2 days')
    FROM (
      SELECT r."student", r_pick,
        CASE WHEN r_kind < ${IN_INTERESTS} THEN r."categories"[1 + floor(r_which * cardinality(r."categories"))::int] ELSE 1 + floor(r_any * 8)::int END AS "category",
        CASE WHEN r_kind < ${IN_INTERESTS} AND r_tag < ${FAVOURITE_TAG} THEN r."tags"[1 + floor(r_which * cardinality(r."categories"))::int] ELSE 0 END AS "tag"
      FROM (SELECT s."student", s."categories", s."tags", random() AS r_kind, random() AS r_which, random() AS r_tag, random() AS r_any, random() AS r_pick
            FROM "bench_students" s, generate_series(1, ${LIKES_EACH}) k) r
    ) d
    JOIN "bench_pools" b ON b."category" = d."category" AND b."tag" = d."tag"
    JOIN "posts" p ON p."id" = b."ids"[1 + floor(power(d.r_pick, 2) * cardinality(b."ids"))::int]
    WHERE p."author_id" <> d."student"
    ON CONFLICT DO NOTHING`);
  // The last fifth of each student's likes is held out: the future the ranking should find.
  await db.query(`CREATE TABLE "bench_held_out" AS
    SELECT "user_id" AS "student", "target_id" AS "post_id" FROM (
      SELECT "user_id", "target_id", row_number() OVER (PARTITION BY "user_id" ORDER BY "created_at" DESC, "id" DESC) AS n, count(*) OVER (PARTITION BY "user_id") AS total FROM "likes") l
    WHERE n <= total / 5`);
  await db.query(`DELETE FROM "likes" l USING "bench_held_out" h WHERE l."user_id" = h."student" AND l."target_id" = h."post_id"`);
  await db.query(`UPDATE "posts" p SET "like_count" = c.n, "view_count" = c.n * 6 + floor(random() * 120)::int FROM (SELECT "target_id", count(*)::int AS n FROM "likes" GROUP BY 1) c WHERE p."id" = c."target_id"`);
});
await timed('VACUUM ANALYZE', () => db.query('VACUUM ANALYZE'));
const [{ likes, held }] = (await db.query(`SELECT (SELECT count(*)::int FROM "likes") AS likes, (SELECT count(*)::int FROM "bench_held_out") AS held`)).rows;
console.log(`  ${likes} likes kept, ${held} held out`);

const privateKey = await importPKCS8(readFileSync(join(keys, 'token-private.pem'), 'utf8'), 'EdDSA');
const tokenOf = (id) => new SignJWT({ uid: `bench_${id}`, sid: randomUUID() }).setProtectedHeader({ alg: 'EdDSA' }).setSubject(String(id)).setIssuer('shiliu-auth').setAudience('shiliu-user').setIssuedAt().setExpirationTime('2h').sign(privateKey);
const tokens = await Promise.all(Array.from({ length: STUDENTS }, (_, i) => tokenOf(i + 1)));
const base = `http://127.0.0.1:${GATEWAY_PORT}`;
const firstPage = async (token) => {
  const answer = await fetch(`${base}/api/posts?limit=${PAGE}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (!answer.ok) throw new Error(`feed answered ${answer.status}: ${await answer.text()}`);
  return (await answer.json()).data.posts;
};

// 3. Recall and nDCG of the held-out likes, students evaluated one at a time.
const students = (await db.query(`SELECT "student", "categories" FROM "bench_students" WHERE "student" IN (SELECT "student" FROM "bench_held_out") ORDER BY random() LIMIT $1`, [SAMPLE])).rows;
const heldOut = new Map();
for (const row of (await db.query(`SELECT "student", "post_id" FROM "bench_held_out" WHERE "student" = ANY($1::bigint[])`, [students.map((s) => s.student)])).rows) {
  if (!heldOut.has(Number(row.student))) heldOut.set(Number(row.student), new Set());
  heldOut.get(Number(row.student)).add(Number(row.post_id));
}
const engagementOnly = await firstPage(null);
const quality = (page, relevant) => {
  const hits = page.map((post) => relevant.has(post.id));
  const dcg = hits.reduce((sum, hit, i) => sum + (hit ? 1 / Math.log2(i + 2) : 0), 0);
  const ideal = Array.from({ length: Math.min(relevant.size, PAGE) }, (_, i) => 1 / Math.log2(i + 2)).reduce((a, b) => a + b, 0);
  return { recall: hits.filter(Boolean).length / relevant.size, ndcg: dcg / ideal };
};
const totals = { personal: { recall: 0, ndcg: 0, outside: 0 }, engagement: { recall: 0, ndcg: 0, outside: 0 } };
console.log(`\nevaluating ${students.length} of ${STUDENTS} students…`);
const evaluationStarted = Date.now();
for (const { student, categories } of students) {
  const relevant = heldOut.get(Number(student));
  const personal = await firstPage(tokens[student - 1]);
  for (const [name, page] of [['personal', personal], ['engagement', engagementOnly]]) {
    const { recall, ndcg } = quality(page, relevant);
    totals[name].recall += recall / students.length;
    totals[name].ndcg += ndcg / students.length;
    totals[name].outside += page.filter((post) => !categories.includes(post.category_id)).length / page.length / students.length;
  }
}
console.log(`  ${((Date.now() - evaluationStarted) / 1000).toFixed(1)} s`);

// 4. The first page's latency through the gateway.
async function http(withToken) {
  const run = (duration, connections) =>
    autocannon({
      url: base,
      connections,
      duration,
      requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: `/api/posts?limit=${PAGE}`, headers: withToken ? { authorization: `Bearer ${tokens[Math.floor(Math.random() * tokens.length)]}` } : {} }) }],
    });
  await run(3, 2);
  const result = await run(seconds, CONNECTIONS);
  if (result.non2xx > 0 || result.errors > 0) console.warn(`  ! ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}
console.log('HTTP through the gateway, first page without a token…');
const anonymous = await http(false);
console.log('HTTP through the gateway, first page with a random student\'s token…');
const personalised = await http(true);
await db.end();

const percent = (n) => `${(n * 100).toFixed(1)} %`;
const ms = (n) => `${n.toFixed(1)} ms`;
console.log(`\n${STUDENTS} students, ${NOTES} notes, ${likes} likes kept and ${held} held out; ${students.length} students evaluated; ${CONNECTIONS} connections, ${seconds} s per HTTP case\n`);
console.log('first page of 20                | recall@20 | nDCG@20 | outside the planted categories');
for (const [name, label] of [['personal', 'personalised 推荐 (token)'], ['engagement', 'engagement only (no token)']]) {
  console.log(`${label.padEnd(31)} | ${percent(totals[name].recall).padStart(9)} | ${percent(totals[name].ndcg).padStart(7)} | ${percent(totals[name].outside)}`);
}
console.log(`recall ratio: ${(totals.personal.recall / totals.engagement.recall).toFixed(2)}×\n`);
console.log('first page through the gateway  |   req/s |    p50 |    p99');
console.log(`without a token                 | ${anonymous.rps.toFixed(0).padStart(7)} | ${ms(anonymous.p50).padStart(6)} | ${ms(anonymous.p99).padStart(6)}`);
console.log(`with a random student's token   | ${personalised.rps.toFixed(0).padStart(7)} | ${ms(personalised.p50).padStart(6)} | ${ms(personalised.p99).padStart(6)}`);
console.log(`p99 ratio: ${(personalised.p99 / anonymous.p99).toFixed(2)}×`);
await stopAll();
