#!/usr/bin/env node
// Live requests during a backfill (issue 46): the embedded product started on a database whose read models are
// empty, so that social, notify and search ask for every note and user and content and auth re-announce 20,000 notes
// and 2,000 users to them; students like notes and read them meanwhile. The same load runs again once the backfill
// is over, and the two are printed side by side with their ratio (the target: p99 within 2× of the quiet run).
//
// Usage: infra/local/up && npm run build && node bench/backfill/run.mjs [seconds per run, default 20]
// Not part of `npm test`: it wants the machine to itself.
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { importPKCS8, SignJWT } from 'jose';
import pg from 'pg';
import { benchEnv, freshDatabase, sleep, start, tokenKeys, waitFor } from '../lib.mjs';

const seconds = Number(process.argv[2] ?? 20);
const USERS = 2_000;
const NOTES = 20_000;
const LIKERS = 20;
const READERS = 20;
const PORT = 8094;
const base = `http://127.0.0.1:${PORT}`;
/** How long the bench waits for the backfill to end after the busy run. */
const WAIT_LIMIT_MS = 30 * 60_000;

const env = benchEnv(['DATABASE_URL']);
const databaseUrl = await freshDatabase(env, 'shiliu_backfill_bench');
const dataDir = mkdtempSync(join(tmpdir(), 'shiliu-backfill-'));
const keys = tokenKeys(join(dataDir, 'keys'));
mkdirSync(join(dataDir, 'web'));
writeFileSync(join(dataDir, 'web', 'index.html'), '<!doctype html><div id="root"></div>');
const processEnv = { DATABASE_URL: databaseUrl, PORT: String(PORT), DATA_DIR: dataDir, DEMO_DATA: 'false', WEB_DIST_DIR: join(dataDir, 'web'), RATE_LIMIT_PER_MINUTE: '1000000000' };

async function startProduct() {
  const child = start(env, 'embedded', 'apps/gateway/dist/embedded.js', processEnv);
  await waitFor(`${base}/api/health`, 'the embedded process', 300_000);
  return child;
}

async function stop(child) {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** The owners' tables as a campus would have them (users in auth; authors, notes in content) and every read model empty. */
async function fill() {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  await db.query(`INSERT INTO auth.users ("id", "user_id", "nickname", "password_hash", "avatar", "bio", "location") OVERRIDING SYSTEM VALUE
    SELECT g, 'bench_' || g, '同学' || g, 'x', '/api/files/avatars/' || (g % 50) || '.png', '用户没有任何简介', '上海' FROM generate_series(1, ${USERS}) g`);
  await db.query(`INSERT INTO content.authors ("id", "user_id", "nickname", "avatar", "location", "verified")
    SELECT g, 'bench_' || g, '同学' || g, '/api/files/avatars/' || (g % 50) || '.png', '上海', 0 FROM generate_series(1, ${USERS}) g`);
  await db.query(`INSERT INTO content.posts ("author_id", "title", "content", "content_text", "category_id", "type", "images", "cover_url", "created_at", "updated_at")
    SELECT 1 + (g * 7919) % ${USERS}, '校园笔记第' || g || '篇', '<p>第' || g || '篇笔记的正文。</p>', '第' || g || '篇笔记的正文。', 1 + g % 8, 1,
      jsonb_build_array(jsonb_build_object('url', '/api/files/bench/' || (g % 100) || '.jpg', 'width', 600, 'height', 800)), '/api/files/bench/' || (g % 100) || '.jpg', ts, ts
    FROM (SELECT g, now() - random() * interval '180 days' AS ts FROM generate_series(1, ${NOTES}) g) s`);
  await db.query('VACUUM ANALYZE');
  await db.end();
}

/** Notes announced to the read models so far, and the events not yet handed over. */
async function progress(db) {
  const { rows: schemas } = await db.query(`SELECT "table_schema" FROM "information_schema"."tables" WHERE "table_name" = 'outbox'`);
  const unsent = schemas.map(({ table_schema: schema }) => `(SELECT count(*) FROM "${schema}"."outbox" WHERE "published_at" IS NULL AND "failed_at" IS NULL)`).join(' + ');
  const {
    rows: [row],
  } = await db.query(`SELECT (SELECT count(*) FROM social.posts)::int AS "known", (${unsent})::int AS "unsent"`);
  return row;
}

const privateKey = await importPKCS8(readFileSync(join(keys, 'token-private.pem'), 'utf8'), 'EdDSA');
const tokens = [];
for (let id = 1; id <= LIKERS; id++) {
  tokens.push(await new SignJWT({ uid: `bench_${id}`, sid: randomUUID() }).setProtectedHeader({ alg: 'EdDSA' }).setSubject(String(id)).setIssuer('shiliu-auth').setAudience('shiliu-user').setIssuedAt().setExpirationTime('2h').sign(privateKey));
}

const describe = (figures) => `${figures.rps.toFixed(0)} req/s, p50 ${figures.p50.toFixed(1)} ms, p99 ${figures.p99.toFixed(1)} ms`;

/** Likes (each connection a student liking and unliking one note of their own pick) and note reads, at once. */
async function load() {
  let liker = 0;
  const likes = autocannon({
    url: base,
    connections: LIKERS,
    duration: seconds,
    requests: [
      {
        setupRequest: (request, context) => {
          context.user ??= liker++ % LIKERS;
          context.note ??= 1 + Math.floor(Math.random() * NOTES);
          context.liked = !context.liked;
          const body = JSON.stringify({ target_type: 1, target_id: context.note });
          return { ...request, method: context.liked ? 'POST' : 'DELETE', path: '/api/likes', body, headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[context.user]}` } };
        },
      },
    ],
  });
  const reads = autocannon({
    url: base,
    connections: READERS,
    duration: seconds,
    requests: [{ setupRequest: (request) => ({ ...request, method: 'GET', path: `/api/posts/${1 + Math.floor(Math.random() * NOTES)}` }) }],
  });
  const figures = (result) => {
    if (result.non2xx > 0 || result.errors > 0) console.warn(`  ! ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts`);
    return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max };
  };
  const [like, read] = await Promise.all([likes, reads]);
  return { like: figures(like), read: figures(read) };
}

const watcher = new pg.Client({ connectionString: databaseUrl });
try {
  process.stdout.write('migrating… ');
  await stop(await startProduct());
  process.stdout.write('filling… ');
  await fill();
  console.log('starting on empty read models');
  const product = await startProduct();
  await watcher.connect();

  const before = await progress(watcher);
  const busy = await load();
  const during = await progress(watcher);
  console.log(`during the run: notes known to social ${before.known} → ${during.known} of ${NOTES}, events waiting ${before.unsent} → ${during.unsent}`);
  console.log(`  likes ${describe(busy.like)}; reads ${describe(busy.read)}`);

  const started = Date.now();
  let said = started;
  for (;;) {
    const now = await progress(watcher);
    if (now.known >= NOTES && now.unsent === 0) break;
    if (Date.now() - said >= 30_000) {
      said = Date.now();
      console.log(`  ${((said - started) / 1000).toFixed(0)} s: notes known to social ${now.known}, events waiting ${now.unsent}`);
    }
    if (Date.now() - started > WAIT_LIMIT_MS) throw new Error(`the backfill is not over ${WAIT_LIMIT_MS / 60_000} minutes after the run: ${JSON.stringify(now)}`);
    await sleep(500);
  }
  console.log(`backfill over ${((Date.now() - started) / 1000).toFixed(0)} s after the run`);
  const calm = await load();
  await stop(product);

  const row = (name, live, quiet) =>
    `| ${name} | ${live.rps.toFixed(0)} | ${live.p50.toFixed(1)} | ${live.p99.toFixed(1)} | ${live.max.toFixed(0)} | ${quiet.rps.toFixed(0)} | ${quiet.p50.toFixed(1)} | ${quiet.p99.toFixed(1)} | ${(live.p99 / quiet.p99).toFixed(2)}× |`;
  console.log(`\n${USERS} users, ${NOTES} notes; ${LIKERS} connections liking and ${READERS} reading at once, ${seconds} s a run, embedded`);
  console.log('| calls | during: req/s | p50 ms | p99 ms | max ms | quiet: req/s | p50 ms | p99 ms | p99 during / quiet |\n|---|---|---|---|---|---|---|---|---|');
  console.log(row('like / unlike', busy.like, calm.like));
  console.log(row('note detail', busy.read, calm.read));
} finally {
  await watcher.end().catch(() => undefined);
}
process.exit(0);
