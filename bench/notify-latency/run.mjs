#!/usr/bin/env node
// Notification latency benchmark (issue 12): distributed mode, the content service, the notify service and the
// gateway as separate processes over Kafka (Redis, PostgreSQL, Kafka from infra/local). Many users like notes at a
// fixed rate through the gateway; for each like, the time from its HTTP answer to the notification being readable
// through GET /api/notifications/likes (the notes' authors read their likes tab whenever their live badge changes). Beside it,
// in the same run, the bare produce-to-consume round trip of a Kafka message at the same rate on the same broker.
//
// Usage: infra/local/up && npm run build && node bench/notify-latency/run.mjs [likes per second, default 200] [seconds, default 30]
// (PROFILE_DIR=/tmp/profiles profiles the services.)
// Not part of `npm test`: it takes a few minutes and the machine to itself.
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { importPKCS8, SignJWT } from 'jose';
import kafkajs from 'kafkajs';
import pg from 'pg';
import { benchEnv, cpuSecondsOf, freshDatabase, percentile, root, sleep, start, stopAll, tokenKeys, waitFor } from '../lib.mjs';

const rate = Number(process.argv[2] ?? 200);
const seconds = Number(process.argv[3] ?? 30);
const AUTHORS = 10; // one note each; each author reads their likes tab
const LIKES = rate * seconds;
const LIKERS = Math.ceil(LIKES / AUTHORS); // every liker likes every note once
const PORTS = { content: 3292, notify: 3294, gateway: 8094 };
const DATABASE = 'shiliu_notify_bench';

const env = benchEnv();
const topicPrefix = `bench-${randomUUID().slice(0, 8)}.`;

/** Sends `count` things at `perSecond`, evenly spaced from the start (a late send does not push the later ones back). */
async function atRate(count, perSecond, send) {
  const started = Date.now();
  const pending = [];
  for (let i = 0; i < count; i++) {
    const due = started + (i * 1000) / perSecond;
    const wait = due - Date.now();
    if (wait > 0) await sleep(wait);
    pending.push(send(i));
  }
  await Promise.all(pending);
}

// 1. A fresh database, the services (which migrate it), the users and notes as content knows them.
const databaseUrl = await freshDatabase(env, DATABASE);

const keys = tokenKeys();
const serviceEnv = { DATABASE_URL: databaseUrl, AUTH_PUBLIC_KEY_FILE: join(keys, 'token-public.pem'), KAFKA_TOPIC_PREFIX: topicPrefix, KAFKA_SESSION_TIMEOUT_MS: '6000' };
const processes = {};
processes.content = start(env, 'content', 'apps/content/dist/main.js', { ...serviceEnv, PORT: String(PORTS.content) });
processes.notify = start(env, 'notify', 'apps/notify/dist/main.js', { ...serviceEnv, PORT: String(PORTS.notify) });
await waitFor(`http://127.0.0.1:${PORTS.content}/health/ready`, 'the content service');
await waitFor(`http://127.0.0.1:${PORTS.notify}/health/ready`, 'the notify service');

// Auth is not part of the path measured: users are written into content's author snapshot and sign in with tokens
// signed here by the same key pair auth would use.
const db = new pg.Client({ connectionString: databaseUrl });
await db.connect();
const users = AUTHORS + LIKERS;
await db.query(`INSERT INTO "content"."authors" ("id", "user_id", "nickname") SELECT g, 'bench_' || g, '同学' || g FROM generate_series(1, ${users}) g`);
const notes = (
  await db.query(
    `INSERT INTO "content"."posts" ("author_id", "title", "content", "content_text", "category_id", "type", "images")
     SELECT g, '笔记' || g, '<p>正文</p>', '正文', 1, 1, '[{"url": "/api/files/bench/1.jpg", "width": 600, "height": 800}]'::jsonb FROM generate_series(1, ${AUTHORS}) g
     RETURNING "id"::int AS "id", "author_id"::int AS "author"`,
  )
).rows;
await db.end();
const privateKey = await importPKCS8(readFileSync(join(keys, 'token-private.pem'), 'utf8'), 'EdDSA');
const token = (id) =>
  new SignJWT({ uid: `bench_${id}`, sid: randomUUID() }).setProtectedHeader({ alg: 'EdDSA' }).setSubject(String(id)).setIssuer('shiliu-auth').setAudience('shiliu-user').setIssuedAt().setExpirationTime('1h').sign(privateKey);
const tokens = new Map();
for (let id = 1; id <= users; id++) tokens.set(id, await token(id));

writeFileSync(join(keys, 'index.html'), '<!doctype html><div id="root"></div>');
processes.gateway = start(env, 'gateway', 'apps/gateway/dist/main.js', {
  PORT: String(PORTS.gateway),
  ...Object.fromEntries(['AUTH', 'CONTENT', 'SOCIAL', 'SEARCH', 'MEDIA'].map((name) => [`${name}_URL`, `http://127.0.0.1:${PORTS.content}`])),
  NOTIFY_URL: `http://127.0.0.1:${PORTS.notify}`,
  RATE_LIMIT_PER_MINUTE: '1000000000',
  WEB_DIST_DIR: keys,
});
await waitFor(`http://127.0.0.1:${PORTS.gateway}/api/health`, 'the gateway');
const gateway = `http://127.0.0.1:${PORTS.gateway}`;
const call = async (method, path, id, body, attempt = 1) => {
  let answer;
  try {
    answer = await fetch(gateway + path, {
      method,
      headers: { authorization: `Bearer ${tokens.get(id)}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch (error) {
    // A kept-alive connection the gateway closed just as it was reused; liking and reading are idempotent, so again.
    if (attempt < 3 && error.cause?.code === 'UND_ERR_SOCKET') return call(method, path, id, body, attempt + 1);
    throw error;
  }
  if (!answer.ok) throw new Error(`${method} ${path} answered ${answer.status}: ${await answer.text()}`);
  return (await answer.json()).data;
};

// 2. Likes at the fixed rate. Each author reads their likes tab when their live badge (the unread stream) says the
// count changed, as the web app does, and notes when each notification first shows. Reading on the stream's word
// instead of polling keeps the readers from taking the machine from what is measured.
async function watchLikes(author, onPage, onPush) {
  const answer = await fetch(`${gateway}/api/notifications/stream?access_token=${encodeURIComponent(tokens.get(author))}`);
  if (!answer.ok) throw new Error(`the unread stream answered ${answer.status}`);
  const reader = answer.body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  let reading = null;
  let again = false;
  const read = () => {
    if (reading) return void (again = true);
    reads++;
    reading = call('GET', '/api/notifications/likes?limit=50', author)
      .then((page) => onPage(page, Date.now()))
      .finally(() => {
        reading = null;
        if (again) {
          again = false;
          read();
        }
      });
  };
  void (async () => {
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true }));
      if (done) return;
      buffered += decoder.decode(value, { stream: true });
      const events = buffered.split('\n\n');
      buffered = events.pop();
      let changed = false;
      for (const event of events) {
        const data = /^event: unread\ndata: (.*)$/m.exec(event);
        if (!data) continue;
        onPush(JSON.parse(data[1]).likes, Date.now());
        changed = true;
      }
      if (changed) read();
    }
  })();
  return () => reader.cancel().catch(() => undefined);
}

/** Each author's badge pushes as the bench received them: the likes count shown and when it came. */
const pushes = new Map(notes.map((note) => [note.author, []]));
let reads = 0;

async function notificationLatency() {
  const answeredAt = new Map();
  const sentAt = new Map();
  const firstSeen = new Map();
  const closers = await Promise.all(
    notes.map((note) =>
      watchLikes(
        note.author,
        (page, now) => {
          for (const notification of page.notifications) {
            const key = `${notification.post_id}:${notification.from_user_auto_id}`;
            if (!firstSeen.has(key)) firstSeen.set(key, now);
          }
        },
        (likes, now) => pushes.get(note.author).push({ likes, at: now }),
      ),
    ),
  );
  await atRate(LIKES, rate, async (i) => {
    const note = notes[i % AUTHORS];
    const liker = AUTHORS + 1 + Math.floor(i / AUTHORS);
    sentAt.set(`${note.id}:${liker}`, Date.now());
    await call('POST', '/api/likes', liker, { target_type: 1, target_id: note.id });
    answeredAt.set(`${note.id}:${liker}`, Date.now());
  });
  // The last likes: wait until every notification has been read, or for 30 s at most.
  const deadline = Date.now() + 30_000;
  while (firstSeen.size < LIKES && Date.now() < deadline) await sleep(100);
  closers.forEach((close) => close());
  // A notification read before its like's answer arrived counts as readable at once.
  const latencies = [...answeredAt].filter(([key]) => firstSeen.has(key)).map(([key, answered]) => Math.max(0, firstSeen.get(key) - answered));
  // What the student who tapped and the author who sees it live through: from the tap's request to the author's tab.
  const fromTap = [...sentAt].filter(([key]) => firstSeen.has(key)).map(([key, sent]) => firstSeen.get(key) - sent);
  return { latencies, fromTap, answeredAt, firstSeen };
}

// 3. The bare round trip: a producer and a consumer on the same broker, messages at the same rate.
async function kafkaRoundTrip() {
  const kafka = new kafkajs.Kafka({ clientId: 'notify-bench', brokers: env.KAFKA_BROKERS.split(','), logLevel: kafkajs.logLevel.WARN });
  const topic = `${topicPrefix}round-trip`;
  const kafkaAdmin = kafka.admin();
  await kafkaAdmin.connect();
  await kafkaAdmin.createTopics({ waitForLeaders: true, topics: [{ topic, numPartitions: 3 }] });
  await kafkaAdmin.disconnect();
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  const consumer = kafka.consumer({ groupId: `${topicPrefix}round-trip`, sessionTimeout: 6000, heartbeatInterval: 2000 });
  await producer.connect();
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  const sentAt = new Map();
  const latencies = [];
  let joined = false;
  consumer.on(consumer.events.GROUP_JOIN, () => (joined = true));
  await consumer.run({
    eachMessage: async ({ message }) => {
      const sent = sentAt.get(message.key.toString());
      if (sent !== undefined) latencies.push(Date.now() - sent);
    },
  });
  while (!joined) await sleep(100);
  await atRate(LIKES, rate, async (i) => {
    const key = String(i);
    sentAt.set(key, Date.now());
    await producer.send({ topic, acks: -1, messages: [{ key, value: JSON.stringify({ i }) }] });
  });
  const deadline = Date.now() + 30_000;
  while (latencies.length < LIKES && Date.now() < deadline) await sleep(100);
  await consumer.disconnect();
  await producer.disconnect();
  return latencies;
}

/** CPU seconds each service process has used so far, to tell a busy process from a slow path. */
const cpuSeconds = () => cpuSecondsOf(Object.fromEntries(Object.entries(processes).map(([name, child]) => [name, child.pid])));

console.log(`${LIKES} likes by ${LIKERS} users on ${AUTHORS} notes at ${rate}/s (${seconds} s), load average ${loadavg()[0].toFixed(1)}…`);
const cpuBefore = cpuSeconds();
const likesStarted = Date.now();
const measured = await notificationLatency();
const likesTook = (Date.now() - likesStarted) / 1000;
const cpuAfter = cpuSeconds();
const viaApi = measured.latencies;
console.log(`bare Kafka round trip, ${LIKES} messages at ${rate}/s…`);
const viaKafka = await kafkaRoundTrip();

/**
 * Where the time of a like's event went, from the services' own timestamps and the bench's (one clock, one machine):
 * the like's transaction writing the event (its `occurredAt`), content's relay marking it published (after Kafka took
 * it), notify's transaction that handled it beginning, the author's badge push showing it (the pushed likes count
 * reaching the notification's place among the author's: one note each, whose events notify handles in order), and
 * the likes tab read after that push showing it. The like's HTTP answer is placed against the event too.
 */
async function stages({ answeredAt, firstSeen }) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const { rows } = await client.query(
    `SELECT (o."envelope"->'payload'->>'post_id')::int AS "post", (o."envelope"->'payload'->>'user_id')::int AS "liker",
            (o."envelope"->'payload'->>'post_author_id')::int AS "author", n."ordinal"::int AS "ordinal",
            extract(epoch FROM (o."envelope"->>'occurredAt')::timestamptz) * 1000 AS "occurred",
            extract(epoch FROM o."published_at") * 1000 AS "published", extract(epoch FROM i."handled_at") * 1000 AS "handled"
     FROM "content"."outbox" o JOIN "notify"."inbox" i ON i."event_id" = o."id"
     JOIN (SELECT "post_id", "sender_id", row_number() OVER (PARTITION BY "user_id" ORDER BY "id") AS "ordinal" FROM "notify"."notifications") n
       ON n."post_id" = (o."envelope"->'payload'->>'post_id')::bigint AND n."sender_id" = (o."envelope"->'payload'->>'user_id')::bigint
     WHERE o."type" = 'post.liked'`,
  );
  await client.end();
  const stage = { answered: [], published: [], atNotify: [], handled: [], pushed: [], read: [] };
  for (const row of rows) {
    const [occurred, published, handled] = [Number(row.occurred), Number(row.published), Number(row.handled)];
    const key = `${row.post}:${row.liker}`;
    if (answeredAt.has(key)) stage.answered.push(answeredAt.get(key) - occurred);
    stage.published.push(published - occurred);
    stage.atNotify.push(handled - published);
    stage.handled.push(handled - occurred);
    const push = pushes.get(row.author).find((p) => p.likes >= row.ordinal);
    if (!push) continue;
    stage.pushed.push(push.at - handled);
    if (firstSeen.has(key)) stage.read.push(firstSeen.get(key) - push.at);
  }
  return stage;
}
const stage = await stages(measured);

const f = (n) => String(Math.round(n)).padStart(6);
const line = (label, values) => console.log(`${label.padEnd(38)}${String(values.length).padStart(6)}${f(percentile(values, 0.5))}${f(percentile(values, 0.99))}`);
const [apiP50, apiP99, kafkaP50, kafkaP99] = [percentile(viaApi, 0.5), percentile(viaApi, 0.99), percentile(viaKafka, 0.5), percentile(viaKafka, 0.99)];
console.log(`\n                                       count  p50 ms  p99 ms`);
line('like answered → readable in the tab', viaApi);
line('like sent → readable in the tab', measured.fromTap);
line('bare Kafka produce → consume', viaKafka);
line("like's event: occurred → published", stage.published);
line("like's event: occurred → notify", stage.handled);
console.log('stage by stage:');
line('  event occurred → like answered', stage.answered);
line('  occurred → published (relay)', stage.published);
line('  published → notify began (Kafka)', stage.atNotify);
line('  notify began → badge pushed', stage.pushed);
line('  badge pushed → readable (read)', stage.read);
console.log(`badge pushes ${[...pushes.values()].reduce((sum, list) => sum + list.length, 0)}, likes tab reads ${reads}`);
if (cpuBefore) console.log(
  `CPU while liking (${likesTook.toFixed(1)} s): ${Object.keys(processes).map((name) => `${name} ${(cpuAfter[name] - cpuBefore[name]).toFixed(1)} s`).join(', ')}; load average now ${loadavg()[0].toFixed(1)}`,
);
const met = apiP99 < 250 && apiP99 <= 5 * kafkaP99;
console.log(`\np99 ratio ${(apiP99 / kafkaP99).toFixed(2)}×; target (p99 < 250 ms and within 5× the bare round trip): ${met ? 'met' : 'NOT met'}`);
await stopAll();
process.exit(0);
