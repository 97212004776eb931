#!/usr/bin/env node
// Hot paths benchmark (issue 10): the calls every reader makes, through the gateway, in both run modes, each beside
// two floors measured in the same run: the same SQL straight against PostgreSQL at the same concurrency, and a bare
// Node HTTP server answering a fixed body of the same size. 2,000 users, 20,000 notes, 20,000 comments and 50,000
// likes, filled with SQL; 50 connections; autocannon.
//
// Usage: infra/local/up && npm run build && node bench/hot-paths/run.mjs [seconds per case, default 15] [embedded|distributed|both]
// The people cases (profile, hover card, follow status, unread count) run embedded only: the distributed run starts
// content and the gateway alone.
// The processes run from the build, as a deployment runs them: memory is measured without ts-node's compiler.
// Not part of `npm test`: it wants the machine to itself. PROFILE_DIR=<dir> runs the processes under --cpu-prof;
// CASES=detail,comments runs only the cases whose names contain one of those words. After each mode's table it prints
// the CPU each process spent a request during the API runs and until every event they wrote was handed over (Linux
// only), and how long after the run that took.
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, writeFileSync, mkdtempSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import { importPKCS8, SignJWT } from 'jose';
import pg from 'pg';
import { createRequire } from 'node:module';
import { benchEnv, cpuSecondsOf, freshDatabase, infraPid, root, start, tokenKeys, waitFor } from '../lib.mjs';
import { NODE_FLAGS } from '../../scripts/lib.mjs';

const { ReactionRepository } = createRequire(import.meta.url)('../../libs/content/dist/reactions/reaction.repository.js');
const reactions = new ReactionRepository();

const seconds = Number(process.argv[2] ?? 15);
const modes = (process.argv[3] ?? 'both') === 'both' ? ['embedded', 'distributed'] : [process.argv[3]];
const CONNECTIONS = 50;
const USERS = 2_000;
const NOTES = 20_000;
const COMMENTS = 20_000;
const LIKES = 50_000;
const LIKERS = 50;
const GATEWAY_PORT = 8093;
const CONTENT_PORT = 3193;
const BARE_PORT = 8097;
/** Pool sizes the services use: createServiceApp's default when distributed, the embedded host's. */
const POOL_SIZE = { embedded: 5, distributed: 10 };
const PROFILE_DIR = process.env.PROFILE_DIR;

const env = benchEnv();
// A Redis database of its own, so the bench's view tallies and rankings never meet the tests' keys.
const redisUrl = new URL(env.REDIS_URL);
redisUrl.pathname = '/9';

const queries = JSON.parse(
  execFileSync(process.execPath, ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', join(root, 'bench/hot-paths/queries.ts')], {
    cwd: root,
    env: { ...env, TS_NODE_PROJECT: join(root, 'tsconfig.base.json') },
  }).toString(),
);
const snapshotNow = (params, index) => params.map((value, at) => (at === index ? new Date() : value));
const rankedPageSql = queries.detail.sql.replace(`WHERE p."id" = $2`, `WHERE p."id" = ANY($2::bigint[]) ORDER BY array_position($2::bigint[], p."id")`);

// The comment list's statements as CommentRepository and CommentService run them (they are not exported).
const SELECT_COMMENTS = `
  SELECT c.*, p."author_id" AS "post_author_id", a."user_id", a."nickname", a."avatar", a."verified", a."location",
    ra."nickname" AS "reply_to_nickname", ra."user_id" AS "reply_to_user_public_id",
    ($1::bigint IS NOT NULL AND EXISTS (SELECT 1 FROM "likes" l WHERE l."user_id" = $1 AND l."target_type" = 2 AND l."target_id" = c."id")) AS "liked"
  FROM "comments" c JOIN "posts" p ON p."id" = c."post_id" JOIN "authors" a ON a."id" = c."author_id" LEFT JOIN "authors" ra ON ra."id" = c."reply_to_user_id"`;

// Auth's and social's reads for the people cases, as their repositories write them (they are not exported).
const AUTH_USER_COLUMNS = `"id", "user_id", "nickname", "avatar", "bio", "location", "verified", "gender", "zodiac_sign", "mbti", "education", "major", "interests", "created_at"`;
const RELATIONS_SQL = `SELECT "o"::int AS "other",
    EXISTS (SELECT 1 FROM social.follows WHERE "follower_id" = $1 AND "following_id" = "o") AS "viewer_follows",
    EXISTS (SELECT 1 FROM social.follows WHERE "follower_id" = "o" AND "following_id" = $1) AS "follows_viewer"
  FROM unnest($2::bigint[]) AS "o"`;

/** Fills content's tables the way the product would have them, in a few statements. */
async function fill(databaseUrl) {
  const db = new pg.Client({ connectionString: databaseUrl, options: '-c search_path=content,public' });
  await db.connect();
  await db.query(`INSERT INTO "authors" ("id", "user_id", "nickname", "avatar", "location", "verified")
    SELECT g, 'bench_' || g, '同学' || g, '/api/files/avatars/' || (g % 50) || '.png', '上海', (g % 20 = 0)::int FROM generate_series(1, ${USERS}) g`);
  await db.query(`INSERT INTO "tags" ("name", "use_count") SELECT '标签' || g, 0 FROM generate_series(1, 200) g`);
  await db.query(`INSERT INTO "posts" ("author_id", "title", "content", "content_text", "category_id", "type", "images", "cover_url", "view_count", "created_at", "updated_at")
    SELECT 1 + (g * 7919) % ${USERS}, '校园笔记第' || g || '篇：今天的图书馆', '<p>这是第' || g || '篇笔记的正文，记录了校园生活的一天。</p>', '这是第' || g || '篇笔记的正文，记录了校园生活的一天。',
      1 + g % 8, 1, jsonb_build_array(jsonb_build_object('url', '/api/files/bench/' || (g % 100) || '.jpg', 'width', 600, 'height', 800)),
      '/api/files/bench/' || (g % 100) || '.jpg', (random() * 2000)::int, ts, ts
    FROM (SELECT g, now() - random() * interval '180 days' AS ts FROM generate_series(1, ${NOTES}) g) s`);
  await db.query(`INSERT INTO "post_tags" ("post_id", "tag_id", "position") SELECT "id", 1 + ("id" * 31) % 200, 1 FROM "posts"`);
  await db.query(`UPDATE "tags" t SET "use_count" = (SELECT count(*) FROM "post_tags" pt WHERE pt."tag_id" = t."id")`);
  // Comments: half top-level, half replies to them; the first note carries a thread of its own for the comments page.
  await db.query(`INSERT INTO "comments" ("post_id", "author_id", "content", "content_text", "created_at")
    SELECT CASE WHEN g <= 200 THEN 1 ELSE 1 + (g * 104729) % ${NOTES} END, 1 + (g * 31) % ${USERS}, '说得好' || g, '说得好' || g, now() - g * interval '1 minute'
    FROM generate_series(1, ${COMMENTS / 2}) g`);
  await db.query(`INSERT INTO "comments" ("post_id", "author_id", "parent_id", "reply_to_comment_id", "reply_to_user_id", "content", "content_text", "created_at")
    SELECT c."post_id", 1 + (c."id" * 17) % ${USERS}, c."id", c."id", c."author_id", '同意' || c."id", '同意' || c."id", c."created_at" + interval '10 seconds'
    FROM "comments" c`);
  await db.query(`UPDATE "comments" c SET "reply_count" = 1 WHERE "parent_id" IS NULL`);
  await db.query(`UPDATE "posts" p SET "comment_count" = n FROM (SELECT "post_id", count(*) AS n FROM "comments" GROUP BY 1) x WHERE x."post_id" = p."id"`);
  // Likes by the other users (the 50 likers start with none on note 1, so their first call adds one).
  await db.query(`INSERT INTO "likes" ("user_id", "target_type", "target_id")
    SELECT DISTINCT ${LIKERS} + 1 + (g * 7) % (${USERS} - ${LIKERS}), 1, 1 + (g * 15485863::bigint) % ${NOTES} FROM generate_series(1, ${LIKES}) g ON CONFLICT DO NOTHING`);
  await db.query(`UPDATE "posts" p SET "like_count" = n FROM (SELECT "target_id", count(*) AS n FROM "likes" WHERE "target_type" = 1 GROUP BY 1) x WHERE x."target_id" = p."id"`);
  await db.query('VACUUM ANALYZE');
  await db.end();
}

/**
 * The people side, for the embedded cases that read it: the same users in auth, social's cards of them, ten follows
 * each with their counters, the notes' covers for hover cards, and unread counts for the likers.
 */
async function fillPeople(databaseUrl) {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  await db.query(`INSERT INTO auth.users ("id", "user_id", "nickname", "password_hash", "avatar", "bio", "location") OVERRIDING SYSTEM VALUE
    SELECT g, 'bench_' || g, '同学' || g, 'x', '/api/files/avatars/' || (g % 50) || '.png', '用户没有任何简介', '上海' FROM generate_series(1, ${USERS}) g`);
  await db.query(`INSERT INTO social.user_cards ("id", "user_id", "nickname", "avatar", "verified", "as_of")
    SELECT g, 'bench_' || g, '同学' || g, '/api/files/avatars/' || (g % 50) || '.png', (g % 20 = 0)::int, now() FROM generate_series(1, ${USERS}) g ON CONFLICT DO NOTHING`);
  await db.query(`INSERT INTO social.follows ("follower_id", "following_id")
    SELECT g, 1 + (g + k * 37) % ${USERS} FROM generate_series(1, ${USERS}) g, generate_series(1, 10) k WHERE 1 + (g + k * 37) % ${USERS} <> g ON CONFLICT DO NOTHING`);
  await db.query(`INSERT INTO social.posts ("id", "author_id", "published", "cover", "created_at", "as_of") SELECT "id", "author_id", true, "cover_url", "created_at", now() FROM content.posts ON CONFLICT DO NOTHING`);
  await db.query(`INSERT INTO social.user_stats ("user_id", "follow_count", "fans_count", "post_count")
    SELECT g, (SELECT count(*) FROM social.follows WHERE "follower_id" = g), (SELECT count(*) FROM social.follows WHERE "following_id" = g), (SELECT count(*) FROM content.posts WHERE "author_id" = g)
    FROM generate_series(1, ${USERS}) g ON CONFLICT ("user_id") DO UPDATE SET "follow_count" = EXCLUDED."follow_count", "fans_count" = EXCLUDED."fans_count", "post_count" = EXCLUDED."post_count"`);
  await db.query(`INSERT INTO notify.unread_counts ("user_id", "comments", "likes", "collections", "follows")
    SELECT g, g % 3, g % 7, g % 2, g % 5 FROM generate_series(1, ${LIKERS}) g ON CONFLICT DO NOTHING`);
  await db.query('VACUUM ANALYZE');
  await db.end();
}

const keys = tokenKeys();
const privateKey = await importPKCS8(readFileSync(join(keys, 'token-private.pem'), 'utf8'), 'EdDSA');
const tokens = [];
for (let id = 1; id <= LIKERS; id++) {
  tokens.push(await new SignJWT({ uid: `bench_${id}`, sid: randomUUID() }).setProtectedHeader({ alg: 'EdDSA' }).setSubject(String(id)).setIssuer('shiliu-auth').setAudience('shiliu-user').setIssuedAt().setExpirationTime('2h').sign(privateKey));
}

const randomNote = () => 1 + Math.floor(Math.random() * NOTES);
const likeBody = JSON.stringify({ target_type: 1, target_id: 1 });
const randomUser = () => `bench_${1 + Math.floor(Math.random() * USERS)}`;
const randomToken = () => tokens[Math.floor(Math.random() * LIKERS)];
/** A student's id as the bench's tokens name them (bench_1 … bench_50 are 1 … 50). */
const viewerOf = (context) => (context.viewer ??= 1 + Math.floor(Math.random() * LIKERS));


/** Each path: how autocannon calls it, and the statements the service runs for it, run directly for the floor. */
const cases = [
  {
    name: 'recommend feed, page 1',
    request: { path: '/api/posts?page=1&limit=20' },
    sql: async (client) => {
      const ranking = await client.query(queries.recommendRanking.sql, snapshotNow(queries.recommendRanking.params, 1));
      const ids = ranking.rows.slice(0, 20).map((row) => row.id);
      await Promise.all([client.query(rankedPageSql, [null, ids]), client.query(queries.recommendTotal.sql, snapshotNow(queries.recommendTotal.params, 1))]);
    },
  },
  {
    name: 'category feed, page 1',
    request: { path: '/api/posts?category=food&page=1&limit=20' },
    sql: (client) => Promise.all([client.query(queries.category.page.sql, snapshotNow(queries.category.page.params, 2)), client.query(queries.category.total.sql, snapshotNow(queries.category.total.params, 1))]),
  },
  {
    name: 'note detail',
    request: { setup: (req) => ({ ...req, path: `/api/posts/${randomNote()}` }) },
    sql: (client) => client.query({ ...queries.shownNotes, values: [null, [randomNote()]] }),
  },
  {
    // A student reading: the note as anyone sees it, plus whether they like and collect it.
    name: 'note detail, logged in',
    request: { setup: (req) => ({ ...req, path: `/api/posts/${randomNote()}`, headers: { authorization: `Bearer ${tokens[Math.floor(Math.random() * LIKERS)]}` } }) },
    sql: async (client) => {
      const note = randomNote();
      await client.query({ ...queries.shownNotes, values: [null, [note]] });
      await client.query({ ...queries.viewerFlags, values: [[String(1 + Math.floor(Math.random() * LIKERS))], [note]] });
    },
  },
  {
    name: 'comments page (limit 5)',
    request: { path: '/api/posts/1/comments?page=1&limit=5' },
    sql: async (client) => {
      await client.query(`SELECT * FROM "posts" WHERE "id" = $1`, [1]);
      const [top] = await Promise.all([
        client.query(`${SELECT_COMMENTS} WHERE c."post_id" = $2 AND c."parent_id" IS NULL ORDER BY c."created_at" ASC, c."id" ASC LIMIT $3 OFFSET $4`, [null, 1, 5, 0]),
        client.query(`SELECT count(*)::int AS "total" FROM "comments" WHERE "post_id" = $1 AND "parent_id" IS NULL`, [1]),
      ]);
      await client.query(
        `SELECT * FROM (SELECT x.*, row_number() OVER (PARTITION BY x."parent_id" ORDER BY x."created_at", x."id") AS "rank" FROM (${SELECT_COMMENTS} WHERE c."parent_id" = ANY($2::bigint[])) x) ranked WHERE "rank" <= $3 ORDER BY "created_at", "id"`,
        [null, top.rows.map((row) => row.id), 2],
      );
    },
  },
  {
    name: 'like / unlike, 50 users, one note',
    sample: { method: 'POST', path: '/api/likes', body: likeBody, headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[0]}` } },
    // Each connection is one user, alternating like and unlike.
    request: {
      setup: (req, context) => {
        context.user ??= (likerSeq++ % LIKERS) + 1;
        context.liked = !context.liked;
        return { ...req, method: context.liked ? 'POST' : 'DELETE', path: '/api/likes', body: likeBody, headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[context.user - 1]}` } };
      },
    },
    sql: async (client, context) => {
      context.user ??= (likerSeq++ % LIKERS) + 1;
      context.liked = !context.liked;
      const user = String(context.user);
      const id = randomUUID();
      const type = context.liked ? 'post.liked' : 'post.unliked';
      const payload = { post_id: 1, post_author_id: 0, user_id: Number(user), count: 0 };
      // The service's own statement, from its build: the floor is the same SQL, not a copy of it.
      await reactions.react(
        { query: async (text, params) => (await client.query(text, params)).rows },
        {
          kind: 'note like',
          userId: user,
          targetId: 1,
          on: context.liked,
          checkUser: true,
          event: { id, topic: 'shiliu.reaction', key: '1', type, envelope: { id, type, version: 1, occurredAt: new Date().toISOString(), actor: null, correlationId: id, causationId: id, payload } },
        },
      );
    },
  },
  {
    // A student's profile page: the user, then their counters, alternating.
    name: 'profile (user and stats alternating)',
    modes: ['embedded'],
    sample: { path: '/api/users/bench_1' },
    request: {
      setup: (req, context) => {
        context.stats = !context.stats;
        const user = randomUser();
        return { ...req, path: context.stats ? `/api/users/${user}/stats` : `/api/users/${user}` };
      },
    },
    sql: async (client, context) => {
      context.stats = !context.stats;
      const user = randomUser();
      if (!context.stats) {
        await client.query(`SELECT ${AUTH_USER_COLUMNS} FROM auth.users WHERE lower("user_id") = lower($1)`, [user]);
        return;
      }
      const { rows } = await client.query(`SELECT "id" FROM social.user_cards WHERE "user_id" = $1`, [user]);
      await client.query(`SELECT * FROM social.user_stats WHERE "user_id" = ANY($1::bigint[])`, [[rows[0].id]]);
    },
  },
  {
    name: 'hover card, logged in',
    modes: ['embedded'],
    sample: { path: '/api/users/bench_1/card', headers: { authorization: `Bearer ${tokens[1]}` } },
    request: { setup: (req) => ({ ...req, path: `/api/users/${randomUser()}/card`, headers: { authorization: `Bearer ${randomToken()}` } }) },
    sql: async (client, context) => {
      const { rows } = await client.query(`SELECT * FROM social.user_cards WHERE "user_id" = $1`, [randomUser()]);
      const id = rows[0].id;
      await client.query(`SELECT * FROM social.user_stats WHERE "user_id" = ANY($1::bigint[])`, [[id]]);
      await client.query(RELATIONS_SQL, [viewerOf(context), [id]]);
      await client.query(`SELECT "cover" FROM social.posts WHERE "author_id" = $1 AND "published" AND NOT "deleted" AND "cover" IS NOT NULL ORDER BY "created_at" DESC, "id" DESC LIMIT 3`, [id]);
    },
  },
  {
    name: 'follow status, logged in',
    modes: ['embedded'],
    sample: { path: '/api/users/bench_1/follow-status', headers: { authorization: `Bearer ${tokens[1]}` } },
    request: { setup: (req) => ({ ...req, path: `/api/users/${randomUser()}/follow-status`, headers: { authorization: `Bearer ${randomToken()}` } }) },
    sql: async (client, context) => {
      const { rows } = await client.query(`SELECT * FROM social.user_cards WHERE "user_id" = $1`, [randomUser()]);
      await client.query(RELATIONS_SQL, [viewerOf(context), [rows[0].id]]);
    },
  },
  {
    name: 'unread count',
    modes: ['embedded'],
    sample: { path: '/api/notifications/unread-count', headers: { authorization: `Bearer ${tokens[1]}` } },
    request: { setup: (req) => ({ ...req, path: '/api/notifications/unread-count', headers: { authorization: `Bearer ${randomToken()}` } }) },
    sql: (client, context) => client.query(`SELECT * FROM notify.unread_counts WHERE "user_id" = $1`, [viewerOf(context)]),
  },
];
const wanted = process.env.CASES?.split(',').map((word) => word.trim()).filter(Boolean);
const selectedCases = wanted ? cases.filter((each) => wanted.some((word) => each.name.includes(word))) : cases;
/** The cases a mode runs: the people cases need auth, social and notify, which the distributed run does not start. */
const casesOf = (mode) => selectedCases.filter((each) => !each.modes || each.modes.includes(mode));
let likerSeq = 0;

/** The resident set of a process, in MB. */
function rssOf(pid) {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Math.round(Number(match[1]) / 1024) : NaN;
}

async function viaHttp(port, request) {
  likerSeq = 0;
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [request.setup ? { method: 'GET', setupRequest: request.setup } : { method: 'GET', path: request.path }],
  });
  if (result.non2xx > 0 || result.errors > 0) console.warn(`  ! ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

async function direct(databaseUrl, poolSize, run) {
  likerSeq = 0;
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize, options: '-c search_path=content,public' });
  const latencies = [];
  const deadline = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      const context = {};
      while (Date.now() < deadline) {
        const started = process.hrtime.bigint();
        const client = await pool.connect();
        try {
          await run(client, context);
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

/** One Node process answering every path with as many bytes as the path names: the floor of any HTTP answer. */
const bare = spawn(
  process.execPath,
  [
    '-e',
    `const bodies = new Map();
     require('node:http').createServer((req, res) => {
       const size = Number(req.url.slice(1)) || 1;
       if (!bodies.has(size)) bodies.set(size, Buffer.alloc(size, 'x'));
       res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': size });
       res.end(bodies.get(size));
     }).listen(${BARE_PORT});`,
  ],
  { stdio: 'inherit' },
);
process.on('exit', () => bare.kill());

/** `start` from bench/lib.mjs, under --cpu-prof when PROFILE_DIR is set (Node refuses it in NODE_OPTIONS). */
function launch(mode, name, entry, extra) {
  if (!PROFILE_DIR) return start(env, name, entry, extra);
  const dir = join(PROFILE_DIR, mode);
  mkdirSync(dir, { recursive: true });
  const child = spawn(process.execPath, [...NODE_FLAGS, '--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-name=${name}.cpuprofile`, entry], {
    cwd: root,
    env: { ...env, TS_NODE_PROJECT: join(root, 'tsconfig.base.json'), LOG_LEVEL: 'warn', NODE_ENV: 'production', METRICS_PORT: '0', ...extra },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  process.on('exit', () => child.exitCode === null && child.kill('SIGTERM'));
  return child;
}

/** How long the bench waits for the outboxes to drain before it counts the CPU anyway and says so. */
const DRAIN_LIMIT_MS = 120_000;

/**
 * Seconds from the end of a run until every service's outbox has no event left to hand over (in embedded mode an
 * event stays unsent until every consumer in the process has handled it; distributed, until Kafka has it), or
 * null when events were still waiting after DRAIN_LIMIT_MS.
 */
async function outboxesDrained(databaseUrl) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const started = Date.now();
  try {
    const { rows } = await client.query(`SELECT "table_schema" FROM "information_schema"."tables" WHERE "table_name" = 'outbox'`);
    const unsent = rows.map(({ table_schema: schema }) => `(SELECT count(*) FROM "${schema}"."outbox" WHERE "published_at" IS NULL AND "failed_at" IS NULL)`).join(' + ');
    for (;;) {
      const { rows: [{ left }] } = await client.query(`SELECT ${unsent || '0'} AS "left"`);
      if (Number(left) === 0) return (Date.now() - started) / 1000;
      if (Date.now() - started > DRAIN_LIMIT_MS) {
        console.warn(`  ! ${left} events still unsent ${DRAIN_LIMIT_MS / 1000} s after the run: the CPU a request counts only what was handed over by then`);
        return null;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await client.end();
  }
}

/** How long after the last run the bench reads the processes' memory a second time. */
const SETTLE_S = 30;

/** How long the bench waits for the processes to go quiet after the fill before it measures anyway. */
const QUIET_LIMIT_S = 60;

/** Seconds until the processes spent under 3 % of a core in one second, or null past QUIET_LIMIT_S. */
async function quiet(pids) {
  let before = cpuSecondsOf(pids);
  if (!before) return 0;
  for (let second = 1; second <= QUIET_LIMIT_S; second++) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const after = cpuSecondsOf(pids);
    if (Object.keys(pids).reduce((sum, name) => sum + after[name] - before[name], 0) < 0.03) return second;
    before = after;
  }
  return null;
}

async function stopProcess(child) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

const f = (n, digits = 0) => n.toFixed(digits).padStart(7);
/** One mode's table, printed as soon as it is measured. */
function report(mode, rows, rest, loaded, idle) {
  console.log(`\n${mode}: ${USERS} users, ${NOTES} notes, ${COMMENTS} comments, ${LIKES} likes; ${CONNECTIONS} connections, ${seconds} s per case; SQL floor through a pool of the service's size`);
  console.log(`| path | bytes | API req/s | p50 ms | p99 ms | SQL req/s | SQL p99 ms | bare HTTP req/s | API / SQL |\n|---|---|---|---|---|---|---|---|---|`);
  for (const { name, size, api, sql, bare: b } of rows) {
    console.log(`| ${name} | ${size} | ${f(api.rps)} | ${f(api.p50, 1)} | ${f(api.p99, 1)} | ${f(sql.rps)} | ${f(sql.p99, 1)} | ${f(b.rps)} | ${f((api.rps / sql.rps) * 100)}% |`);
  }
  console.log(`RSS MB at rest → right after load → ${SETTLE_S} s later: ${Object.keys(rest).map((name) => `${name} ${rest[name]} → ${loaded[name]} → ${idle[name]}`).join(', ')}`);
  const names = Object.keys(rows[0]?.api.cpuMs ?? {});
  if (names.length === 0) return;
  console.log(`\nCPU ms a request during each API run and until its events were handed over\n| path | ${names.join(' | ')} | events handed over s after the run |\n|---|${names.map(() => '---').join('|')}|---|`);
  for (const { name, api } of rows) console.log(`| ${name} | ${names.map((each) => api.cpuMs[each].toFixed(2)).join(' | ')} | ${api.drainSeconds === null ? `over ${DRAIN_LIMIT_MS / 1000}` : api.drainSeconds.toFixed(1)} |`);
}

for (const mode of modes) {
  console.log(`\n== ${mode} ==`);
  const databaseUrl = await freshDatabase(env, `shiliu_hot_${mode}`);
  if (PROFILE_DIR) mkdirSync(join(PROFILE_DIR, mode), { recursive: true });
  const processes = {};
  const common = { DATABASE_URL: databaseUrl, RATE_LIMIT_PER_MINUTE: '1000000000', LOG_LEVEL: 'warn' };
  if (mode === 'embedded') {
    const dataDir = mkdtempSync(join(tmpdir(), 'shiliu-hot-'));
    tokenKeys(join(dataDir, 'keys'));
    writeFileSync(join(dataDir, 'keys', 'token-private.pem'), readFileSync(join(keys, 'token-private.pem')));
    writeFileSync(join(dataDir, 'keys', 'token-public.pem'), readFileSync(join(keys, 'token-public.pem')));
    mkdirSync(join(dataDir, 'web'));
    writeFileSync(join(dataDir, 'web', 'index.html'), '<!doctype html><div id="root"></div>');
    processes.process = launch(mode, 'embedded', 'apps/gateway/dist/embedded.js', { ...common, PORT: String(GATEWAY_PORT), DATA_DIR: dataDir, DEMO_DATA: 'false', WEB_DIST_DIR: join(dataDir, 'web'), LOG_FORMAT: 'json' });
    await waitFor(`http://127.0.0.1:${GATEWAY_PORT}/api/health`, 'the embedded process');
  } else {
    // Whatever an earlier run left there (a view tally not yet flushed, say) would land in this run's notes.
    const redis = new Redis(redisUrl.toString());
    await redis.flushdb();
    redis.disconnect();
    const serviceEnv = { ...common, REDIS_URL: redisUrl.toString(), AUTH_PUBLIC_KEY_FILE: join(keys, 'token-public.pem'), KAFKA_TOPIC_PREFIX: `bench-hot-${Date.now()}.` };
    processes.content = launch(mode, 'content', 'apps/content/dist/main.js', { ...serviceEnv, PORT: String(CONTENT_PORT) });
    await waitFor(`http://127.0.0.1:${CONTENT_PORT}/health/ready`, 'the content service');
    const webDir = mkdtempSync(join(tmpdir(), 'shiliu-hot-web-'));
    writeFileSync(join(webDir, 'index.html'), '<!doctype html><div id="root"></div>');
    processes.gateway = launch(mode, 'gateway', 'apps/gateway/dist/main.js', {
      ...common,
      REDIS_URL: redisUrl.toString(),
      PORT: String(GATEWAY_PORT),
      ...Object.fromEntries(['AUTH', 'CONTENT', 'SOCIAL', 'NOTIFY', 'SEARCH', 'MEDIA'].map((name) => [`${name}_URL`, `http://127.0.0.1:${CONTENT_PORT}`])),
      WEB_DIST_DIR: webDir,
    });
    await waitFor(`http://127.0.0.1:${GATEWAY_PORT}/api/health`, 'the gateway');
  }
  process.stdout.write('filling… ');
  let t = Date.now();
  await fill(databaseUrl);
  if (casesOf(mode).some((each) => each.modes)) await fillPeople(databaseUrl);
  console.log(`${((Date.now() - t) / 1000).toFixed(1)} s`);
  const rest = Object.fromEntries(Object.entries(processes).map(([name, child]) => [name, rssOf(child.pid)]));

  // Where each API run's CPU went, per request: our processes, PostgreSQL, Kafka's broker (distributed) and this
  // process (autocannon).
  const watched = Object.fromEntries(
    Object.entries({ ...Object.fromEntries(Object.entries(processes).map(([name, child]) => [name, child.pid])), postgres: infraPid('postgres'), kafka: mode === 'distributed' ? infraPid('kafka') : null, autocannon: process.pid }).filter(([, pid]) => pid),
  );
  // The fill's aftermath (the processes taking in its notices, PostgreSQL's background work) would land in the first case.
  const settled = await quiet(Object.fromEntries(Object.entries(watched).filter(([name]) => !['autocannon', 'kafka'].includes(name))));
  console.log(settled === null ? `  ! still busy ${QUIET_LIMIT_S} s after the fill` : `quiet ${settled} s after the fill`);
  const rows = [];
  for (const each of casesOf(mode)) {
    process.stdout.write(`${each.name}: `);
    // One call tells the answer's size, for the bare server's floor.
    const { path = each.request.path ?? '/api/posts/1', ...init } = each.sample ?? {};
    const size = (await (await fetch(`http://127.0.0.1:${GATEWAY_PORT}${path}`, init)).arrayBuffer()).byteLength;
    // A second of warm-up at low concurrency, so the first figures are not the JIT's.
    await autocannon({ url: `http://127.0.0.1:${GATEWAY_PORT}`, connections: 5, duration: 1, requests: [{ method: 'GET', path: '/api/posts/1' }] });
    process.stdout.write('API… ');
    const before = cpuSecondsOf(watched);
    const api = await viaHttp(GATEWAY_PORT, each.request);
    // The CPU the calls cost includes the events they wrote: consumers that fall behind would otherwise look cheap.
    api.drainSeconds = await outboxesDrained(databaseUrl);
    const after = cpuSecondsOf(watched);
    api.cpuMs = before && Object.fromEntries(Object.keys(watched).map((name) => [name, ((after[name] - before[name]) * 1000) / (api.rps * seconds)]));
    process.stdout.write('SQL… ');
    const sql = await direct(databaseUrl, POOL_SIZE[mode], each.sql);
    process.stdout.write('bare HTTP…\n');
    const bareHttp = await viaHttp(BARE_PORT, { path: `/${size}` });
    rows.push({ name: each.name, size, api, sql, bare: bareHttp });
  }
  const loaded = Object.fromEntries(Object.entries(processes).map(([name, child]) => [name, rssOf(child.pid)]));
  // Right after the last run a process still holds that run's garbage; the second reading is what an operator's
  // memory graph shows once the burst is over (each process collects once it has been quiet for ten seconds).
  await new Promise((resolve) => setTimeout(resolve, SETTLE_S * 1000));
  const idle = Object.fromEntries(Object.entries(processes).map(([name, child]) => [name, rssOf(child.pid)]));
  for (const child of Object.values(processes)) await stopProcess(child);
  report(mode, rows, rest, loaded, idle);
}
bare.kill();
process.exit(0);
