#!/usr/bin/env node
// Soak test (issue 18): the distributed stack on this machine (auth, content, social, notify, search, media and the
// gateway as processes of their own, over Kafka, PostgreSQL, Redis, Elasticsearch and MinIO from infra/local) under
// mixed traffic at a fixed rate (browse, like, collect, comment, follow, search, publish with an image), while one
// service process at a time is killed (SIGKILL) and started again at a fixed interval. It prints the requests made,
// the errors by status inside and outside the kill windows, the events each consumer was sent against those it
// handled, and a final check of counters and notifications against a recount.
//
// A kill window runs from the kill until the new process is ready, plus a few seconds for the gateway to notice; a
// request in flight at any moment of it counts as inside.
// Target: zero lost events, zero inconsistency, no 5xx outside the kill windows.
//
// The services run from their builds, as deployed, so that the resident memory printed at the end is what a pod needs.
//
// Usage: npm run build && infra/local/up && node bench/soak/run.mjs [seconds, default 600] [seconds between kills, default 120]
//        [requests per second, default 20]
// Not part of `npm test`: it takes the machine to itself for the whole run.
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import kafkajs from 'kafkajs';
import pg from 'pg';
import sharp from 'sharp';
import { benchEnv, freshDatabase, percentile, root, sleep, start, stopAll, tokenKeys, waitFor } from '../lib.mjs';

const seconds = Number(process.argv[2] ?? 600);
const killEvery = Number(process.argv[3] ?? 120);
const rate = Number(process.argv[4] ?? 20);
const USERS = 40;
const GRACE_MS = 5000;
const DATABASE = 'shiliu_soak';
const PORTS = { auth: 3401, content: 3402, social: 3403, notify: 3404, search: 3405, media: 3406, gateway: 8400 };
const VICTIMS = ['content', 'notify', 'social', 'search', 'media', 'auth'];

const env = benchEnv([...['DATABASE_URL', 'KAFKA_BROKERS', 'REDIS_URL', 'S3_ENDPOINT', 'S3_ACCESS_KEY', 'S3_SECRET_KEY'], 'ELASTICSEARCH_URL']);
const databaseUrl = await freshDatabase(env, DATABASE);
await fetch(`${env.ELASTICSEARCH_URL}/${DATABASE}-*`, { method: 'DELETE' });
const keys = tokenKeys();
const captchaAnswer = 'soak';
const common = {
  DATABASE_URL: databaseUrl,
  AUTH_PUBLIC_KEY_FILE: join(keys, 'token-public.pem'),
  KAFKA_TOPIC_PREFIX: `soak-${randomUUID().slice(0, 8)}.`,
  KAFKA_SESSION_TIMEOUT_MS: '6000',
};
const extras = {
  auth: {
    NODE_ENV: 'test',
    AUTH_PRIVATE_KEY_FILE: join(keys, 'token-private.pem'),
    DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    ADMIN_PASSWORD: 'soak-admin-1',
    AUTH_CAPTCHA_TEST_ANSWER: captchaAnswer,
  },
  search: { SEARCH_ENGINE: 'elasticsearch', SEARCH_INDEX_PREFIX: DATABASE },
};
const processes = new Map();
const launch = (name) => processes.set(name, start(env, name, `apps/${name}/dist/main.js`, { ...common, PORT: String(PORTS[name]), ...extras[name] }));
const ready = (name) => waitFor(`http://127.0.0.1:${PORTS[name]}/health/ready`, `the ${name} service`, 180_000);
for (const name of VICTIMS) launch(name);
for (const name of VICTIMS) await ready(name);
const gatewayProcess = start(env, 'gateway', 'apps/gateway/dist/main.js', {
  PORT: String(PORTS.gateway),
  ...Object.fromEntries(VICTIMS.map((name) => [`${name.toUpperCase()}_URL`, `http://127.0.0.1:${PORTS[name]}`])),
  RATE_LIMIT_PER_MINUTE: '1000000000',
  WEB_DIST_DIR: join(root, 'apps/web/dist'),
});
await waitFor(`http://127.0.0.1:${PORTS.gateway}/api/health`, 'the gateway', 180_000);
const gateway = `http://127.0.0.1:${PORTS.gateway}`;

/** One call through the gateway; answers the status (0 when the connection failed) and the data. */
async function call(method, path, { token, body, form, address = '10.99.0.1' } = {}) {
  const headers = { 'x-forwarded-for': address };
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  try {
    const answer = await fetch(gateway + path, { method, headers, body: form ?? (body === undefined ? undefined : JSON.stringify(body)), signal: AbortSignal.timeout(15_000) });
    const text = await answer.text();
    let data = null;
    try {
      data = JSON.parse(text).data;
    } catch {
      /* not JSON: an error page */
    }
    return { status: answer.status, data, call: `${method} ${path}` };
  } catch (error) {
    return { status: 0, data: null, failure: error.cause?.code ?? error.name, call: `${method} ${path}` };
  }
}

// 1. Students, each with a note that has an image, and a reading of who they are.
const image = await sharp({ create: { width: 320, height: 240, channels: 3, background: { r: 200, g: 80, b: 60 } } }).jpeg().toBuffer();
const users = [];
for (let i = 0; i < USERS; i++) {
  const address = `10.98.${Math.floor(i / 200)}.${1 + (i % 200)}`;
  const captcha = await call('GET', '/api/auth/captcha', { address });
  const userId = `soak_${randomBytes(4).toString('hex')}`;
  const registered = await call('POST', '/api/auth/register', {
    address,
    body: { user_id: userId, nickname: `耐力${i}`, password: 'secret-123', captchaId: captcha.data.captchaId, captchaText: captchaAnswer },
  });
  if (registered.status !== 200) throw new Error(`registration answered ${registered.status}`);
  users.push({ id: registered.data.user.id, userId, token: registered.data.tokens.access_token, address });
}
const notes = [];
async function publish(user) {
  const form = new FormData();
  form.append('image', new Blob([image], { type: 'image/jpeg' }), 'soak.jpg');
  const uploaded = await call('POST', '/api/upload/image', { token: user.token, form, address: user.address });
  if (uploaded.status !== 200) return uploaded;
  const published = await call('POST', '/api/posts', {
    token: user.token,
    address: user.address,
    body: { title: `耐力测试 ${notes.length}`, content: '<p>压力下的一篇笔记</p>', category_id: 1, type: 1, images: [uploaded.data.url], tags: ['耐力'] },
  });
  if (published.status === 200) notes.push(published.data.id);
  return published;
}
for (const user of users) {
  const published = await publish(user);
  if (published.status !== 200) throw new Error(`publishing answered ${published.status}`);
}
// Social learns of students through events; following waits until it knows them all.
for (const user of users) await waitFor(`${gateway}/api/users/${user.userId}/card`, `social to know ${user.userId}`);

// 2. Mixed traffic at the fixed rate, with a kill every `killEvery` seconds.
const pick = (list) => list[Math.floor(Math.random() * list.length)];
const liked = new Set();
const collected = new Set();
const followed = new Set();
const toggle = async (set, key, on, off) => {
  const undo = set.has(key);
  const answer = await (undo ? off() : on());
  if (answer.status === 200) undo ? set.delete(key) : set.add(key);
  return answer;
};
const actions = [
  [30, () => call('GET', `/api/posts?page=1&limit=20&category=${pick(['recommend', '1'])}`)],
  [15, (u) => call('GET', `/api/posts/${pick(notes)}`, { token: u.token, address: u.address })],
  [10, () => call('GET', `/api/posts/${pick(notes)}/comments?page=1&limit=5`)],
  [15, (u) => {
    const note = pick(notes);
    const body = { target_type: 1, target_id: note };
    return toggle(liked, `${u.id}:${note}`, () => call('POST', '/api/likes', { token: u.token, address: u.address, body }), () => call('DELETE', '/api/likes', { token: u.token, address: u.address, body }));
  }],
  [7, (u) => {
    const note = pick(notes);
    return toggle(collected, `${u.id}:${note}`, () => call('POST', `/api/posts/${note}/collect`, { token: u.token, address: u.address }), () => call('DELETE', `/api/posts/${note}/collect`, { token: u.token, address: u.address }));
  }],
  [8, (u) => call('POST', '/api/comments', { token: u.token, address: u.address, body: { post_id: pick(notes), content: `说得好 ${randomUUID().slice(0, 6)}` } })],
  [7, (u) => {
    const other = pick(users.filter((candidate) => candidate !== u));
    return toggle(followed, `${u.id}:${other.id}`, () => call('POST', `/api/users/${other.userId}/follow`, { token: u.token, address: u.address }), () => call('DELETE', `/api/users/${other.userId}/follow`, { token: u.token, address: u.address }));
  }],
  [5, () => call('GET', `/api/search?keyword=${encodeURIComponent('耐力')}&type=all&limit=10`)],
  [3, (u) => publish(u)],
];
const weights = actions.reduce((sum, [weight]) => sum + weight, 0);
const chooseAction = () => {
  let roll = Math.random() * weights;
  for (const [weight, act] of actions) if ((roll -= weight) < 0) return act;
  return actions[0][1];
};

const windows = [];
const results = [];
const started = Date.now();
/** A request belongs to a kill window when it was in flight at any moment of it: one already sent when the process died counts too. */
const inWindow = ({ at, took }) => windows.some((window) => at + took >= window.from && at <= (window.to ?? Infinity));
async function killer() {
  for (let k = 0; (k + 1) * killEvery < seconds; k++) {
    await sleep(started + (k + 1) * killEvery * 1000 - Date.now());
    const name = VICTIMS[k % VICTIMS.length];
    const window = { name, from: Date.now(), to: null };
    windows.push(window);
    const child = processes.get(name);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    launch(name);
    await ready(name);
    window.readyAfterMs = Date.now() - window.from;
    window.to = Date.now() + GRACE_MS;
    console.log(`  killed ${name} at ${Math.round((window.from - started) / 1000)} s; ready again after ${(window.readyAfterMs / 1000).toFixed(1)} s`);
  }
}
console.log(`${USERS} students, ${notes.length} notes; ${rate} requests/s for ${seconds} s, a service killed every ${killEvery} s…`);
const killing = killer();
const pending = [];
for (let i = 0; Date.now() - started < seconds * 1000; i++) {
  const wait = started + (i * 1000) / rate - Date.now();
  if (wait > 0) await sleep(wait);
  const at = Date.now();
  pending.push(chooseAction()(pick(users)).then((answer) => results.push({ at, status: answer.status, failure: answer.failure, call: answer.call, took: Date.now() - at })));
}
await Promise.all(pending);
await killing;

// 3. Once the events have settled: what each consumer was sent against what it handled, and the recounts.
const db = new pg.Client({ connectionString: databaseUrl });
await db.connect();
const one = async (sql) => (await db.query(sql)).rows[0];
const schemas = ['auth', 'content', 'social', 'notify', 'search', 'media'];
const requireBuilt = createRequire(import.meta.url);
requireBuilt('reflect-metadata');
/**
 * The event types a service's handlers name (@EventPattern), read from its built module as Nest reads them, so that
 * a type a consumer never handled at all is still counted, as sent and not handled.
 */
function subscribedTypes(schema) {
  const { module } = requireBuilt(`../../libs/${schema}/dist/index.js`)[`${schema}Service`];
  const types = new Set();
  const seen = new Set();
  const visit = (entry) => {
    const moduleClass = entry?.module ?? entry;
    if (typeof moduleClass !== 'function' || seen.has(entry)) return;
    seen.add(entry);
    for (const imported of [...(Reflect.getMetadata('imports', moduleClass) ?? []), ...(entry.imports ?? [])]) visit(imported);
    for (const controller of [...(Reflect.getMetadata('controllers', moduleClass) ?? []), ...(entry.controllers ?? [])]) {
      for (const name of Object.getOwnPropertyNames(controller.prototype)) {
        const patterns = Reflect.getMetadata('microservices:pattern', controller.prototype[name]);
        for (const pattern of [patterns ?? []].flat(3)) if (typeof pattern === 'string') types.add(pattern);
      }
    }
  };
  visit(module);
  return [...types].sort();
}
const subscriptions = Object.fromEntries(schemas.map((schema) => [schema, subscribedTypes(schema)]));
async function eventAccount() {
  const sentByType = new Map();
  for (const producer of schemas) {
    const rows = (await db.query(`SELECT "envelope"->>'type' AS "type", count(*)::int AS "n" FROM "${producer}"."outbox" WHERE "published_at" IS NOT NULL GROUP BY 1`)).rows;
    for (const { type, n } of rows) sentByType.set(type, (sentByType.get(type) ?? 0) + n);
  }
  const rows = [];
  for (const consumer of schemas) {
    const handled = new Map((await db.query(`SELECT "type", count(*)::int AS "n" FROM "${consumer}"."inbox" GROUP BY "type"`)).rows.map(({ type, n }) => [type, n]));
    for (const type of subscriptions[consumer]) rows.push({ consumer, type, sent: sentByType.get(type) ?? 0, handled: handled.get(type) ?? 0 });
  }
  return rows;
}
const checks = {
  'note like counts ≠ likes': `SELECT count(*)::int AS "n" FROM "content"."posts" p WHERE p."like_count" <> (SELECT count(*) FROM "content"."likes" l WHERE l."target_type" = 1 AND l."target_id" = p."id")`,
  'note collect counts ≠ collections': `SELECT count(*)::int AS "n" FROM "content"."posts" p WHERE p."collect_count" <> (SELECT count(*) FROM "content"."collections" c WHERE c."post_id" = p."id")`,
  "social's note like counts ≠ content's": `SELECT count(*)::int AS "n" FROM "content"."posts" p JOIN "social"."posts" s ON s."id" = p."id" WHERE s."like_count" <> p."like_count" OR s."collect_count" <> p."collect_count"`,
  'follow / fans counts ≠ follows': `SELECT count(*)::int AS "n" FROM "social"."user_stats" u WHERE u."follow_count" <> (SELECT count(*) FROM "social"."follows" f WHERE f."follower_id" = u."user_id") OR u."fans_count" <> (SELECT count(*) FROM "social"."follows" f WHERE f."following_id" = u."user_id")`,
  'likes without their notification': `SELECT count(*)::int AS "n" FROM "content"."likes" l JOIN "content"."posts" p ON p."id" = l."target_id" WHERE l."target_type" = 1 AND l."user_id" <> p."author_id" AND NOT EXISTS (SELECT 1 FROM "notify"."notifications" n WHERE n."type" = 1 AND n."sender_id" = l."user_id" AND n."target_id" = l."target_id" AND n."hidden_by" IS NULL)`,
  'like notifications without their like': `SELECT count(*)::int AS "n" FROM "notify"."notifications" n WHERE n."type" = 1 AND n."hidden_by" IS NULL AND NOT EXISTS (SELECT 1 FROM "content"."likes" l WHERE l."target_type" = 1 AND l."user_id" = n."sender_id" AND l."target_id" = n."target_id")`,
  'follows without their notification': `SELECT count(*)::int AS "n" FROM "social"."follows" f WHERE NOT EXISTS (SELECT 1 FROM "notify"."notifications" n WHERE n."type" = 6 AND n."sender_id" = f."follower_id" AND n."user_id" = f."following_id" AND n."hidden_by" IS NULL)`,
  'unread counters ≠ recount': `SELECT count(*)::int AS "n" FROM "notify"."unread_counts" u WHERE (u."comments", u."likes", u."collections", u."follows") <> (
      SELECT count(*) FILTER (WHERE n."type" IN (4, 5, 7, 8)), count(*) FILTER (WHERE n."type" IN (1, 2)), count(*) FILTER (WHERE n."type" = 3), count(*) FILTER (WHERE n."type" = 6)
      FROM "notify"."notifications" n WHERE n."user_id" = u."user_id" AND NOT n."is_read" AND n."hidden_by" IS NULL)`,
};
async function recounts() {
  const found = {};
  for (const [name, sql] of Object.entries(checks)) found[name] = (await one(sql)).n;
  const indexed = await fetch(`${env.ELASTICSEARCH_URL}/${DATABASE}-posts/_count`).then((answer) => answer.json());
  const published = (await one(`SELECT count(*)::int AS "n" FROM "content"."posts" WHERE NOT "is_draft"`)).n;
  found['published notes missing from the search index'] = Math.max(0, published - (indexed.count ?? 0));
  return found;
}
async function unsent() {
  let n = 0;
  for (const schema of schemas) n += (await one(`SELECT count(*)::int AS "n" FROM "${schema}"."outbox" WHERE "published_at" IS NULL`)).n;
  return n;
}
let account;
let found;
const settleBy = Date.now() + 120_000;
for (;;) {
  account = await eventAccount();
  found = await recounts();
  const settled = (await unsent()) === 0 && account.every((row) => row.handled >= row.sent) && Object.values(found).every((n) => n === 0);
  if (settled || Date.now() > settleBy) break;
  await sleep(2000);
}
let tableDeadLetters = 0;
for (const schema of schemas) tableDeadLetters += (await one(`SELECT count(*)::int AS "n" FROM "${schema}"."dead_letters"`)).n;
const kafkaAdmin = new kafkajs.Kafka({ clientId: 'soak', brokers: env.KAFKA_BROKERS.split(','), logLevel: kafkajs.logLevel.NOTHING }).admin();
await kafkaAdmin.connect();
let kafkaDeadLetters = 0;
for (const topic of (await kafkaAdmin.listTopics()).filter((name) => name.startsWith(common.KAFKA_TOPIC_PREFIX) && name.endsWith('.dlq'))) {
  for (const { high, low } of await kafkaAdmin.fetchTopicOffsets(topic)) kafkaDeadLetters += Number(high) - Number(low);
}
await kafkaAdmin.disconnect();
const deadLetters = tableDeadLetters + kafkaDeadLetters;
const rss = Object.fromEntries(
  [...processes, ['gateway', gatewayProcess]].map(([name, child]) => {
    const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
    return [name, Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024)];
  }),
);
await db.end();

// 4. The figures.
const outside = results.filter((result) => !inWindow(result));
const inside = results.filter((result) => inWindow(result));
const byStatus = (list) =>
  Object.entries(list.reduce((counts, { status, failure }) => ({ ...counts, [failure ? `no answer (${failure})` : status]: (counts[failure ? `no answer (${failure})` : status] ?? 0) + 1 }), {}))
    .map(([status, n]) => `${status}: ${n}`)
    .join(', ');
const errors = (list) => list.filter(({ status }) => status === 0 || status >= 500);
console.log(`\n${results.length} requests in ${seconds} s (p50 ${percentile(results.map((r) => r.took), 0.5)} ms, p99 ${percentile(results.map((r) => r.took), 0.99)} ms)`);
console.log(`outside the kill windows: ${outside.length} requests; ${byStatus(outside)}`);
console.log(`inside the kill windows:  ${inside.length} requests; ${byStatus(inside)}`);
for (const error of errors(outside).slice(0, 10)) console.log(`  outside a window at ${((error.at - started) / 1000).toFixed(1)} s: ${error.call} → ${error.failure ?? error.status} after ${error.took} ms`);
console.log(`kills: ${windows.map((w) => `${w.name} (ready after ${(w.readyAfterMs / 1000).toFixed(1)} s)`).join(', ')}`);
console.log(`\nconsumer  event type               sent  handled`);
for (const row of account.filter(({ sent, handled }) => sent > 0 || handled > 0)) console.log(`${row.consumer.padEnd(9)} ${row.type.padEnd(22)} ${String(row.sent).padStart(6)} ${String(row.handled).padStart(8)}`);
const lost = account.reduce((sum, row) => sum + Math.max(0, row.sent - row.handled), 0);
console.log(`events not handled: ${lost}; dead letters: ${deadLetters}`);
console.log('\nrecount                                          mismatches');
for (const [name, n] of Object.entries(found)) console.log(`${name.padEnd(48)} ${n}`);
console.log(`\nRSS after the run (MB): ${Object.entries(rss).map(([name, mb]) => `${name} ${mb}`).join(', ')}`);
const fiveHundreds = errors(outside).length;
const inconsistent = Object.values(found).reduce((sum, n) => sum + n, 0);
console.log(`\ntarget (no lost events, no inconsistency, no 5xx outside the kill windows): ${lost === 0 && inconsistent === 0 && fiveHundreds === 0 ? 'met' : 'NOT met'}`);
await stopAll();
process.exit(0);
