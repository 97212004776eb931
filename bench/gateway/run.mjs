#!/usr/bin/env node
// The gateway's own cost per call (issue 10's "per-request cost that is not the work"): a fixed 1 KB answer from a
// bare Node server, asked for directly and through the distributed gateway (rate limit, revoked-session check,
// route table, security headers, proxy hop), 50 connections, alternating so both see the same machine; a read, and
// a write with a small JSON body.
//
// Usage: infra/local/up && npm run build && node bench/gateway/run.mjs [seconds per run, default 10] [rounds, default 2]
// PROFILE_DIR=<dir> runs the gateway under --cpu-prof (bench/hot-paths/profile-summary.mjs reads it).
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { benchEnv, cpuSecondsOf, root, tokenKeys, waitFor } from '../lib.mjs';

const seconds = Number(process.argv[2] ?? 10);
const rounds = Number(process.argv[3] ?? 2);
const BARE_PORT = 3391;
const GATEWAY_PORT = 8391;

const env = benchEnv();
const body = Buffer.from(JSON.stringify({ code: 200, message: 'ok', data: { text: 'y'.repeat(960) } }));
const bare = createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  res.end(body);
}).listen(BARE_PORT, '127.0.0.1');

const webDir = tokenKeys();
writeFileSync(join(webDir, 'index.html'), '<!doctype html>');
const profile = process.env.PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.PROFILE_DIR}`, '--cpu-prof-name=gateway.cpuprofile'] : [];
const gateway = spawn(process.execPath, [...profile, 'apps/gateway/dist/main.js'], {
  cwd: root,
  stdio: ['ignore', 'inherit', 'inherit'],
  env: {
    ...env,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    METRICS_PORT: '0',
    PORT: String(GATEWAY_PORT),
    ...Object.fromEntries(['AUTH', 'CONTENT', 'SOCIAL', 'NOTIFY', 'SEARCH', 'MEDIA'].map((name) => [`${name}_URL`, `http://127.0.0.1:${BARE_PORT}`])),
    RATE_LIMIT_PER_MINUTE: '1000000000',
    WEB_DIST_DIR: webDir,
  },
});
await waitFor(`http://127.0.0.1:${GATEWAY_PORT}/api/health`, 'the gateway');

// A read, and a write with a small JSON body (a like): the gateway hands bodies on to the service.
const calls = [
  { call: 'GET a comment page', request: { method: 'GET', path: '/api/posts/1/comments?page=1&limit=5' } },
  { call: 'POST a like', request: { method: 'POST', path: '/api/likes', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ target_type: 1, target_id: 1 }) } },
];
const rows = [];
for (const { call, request } of calls) {
  for (let round = 0; round < rounds; round++) {
    for (const [name, port] of [['bare server', BARE_PORT], ['through the gateway', GATEWAY_PORT]]) {
      const before = cpuSecondsOf({ gateway: gateway.pid });
      const result = await autocannon({ url: `http://127.0.0.1:${port}`, connections: 50, duration: seconds, requests: [request] });
      const after = cpuSecondsOf({ gateway: gateway.pid });
      if (result.non2xx || result.errors) throw new Error(`${call}, ${name}: ${result.non2xx} answers not 2xx, ${result.errors} errors`);
      const cpuMs = before && port === GATEWAY_PORT ? ((after.gateway - before.gateway) * 1000) / (result.requests.average * seconds) : null;
      rows.push({ call, name, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, cpuMs });
    }
  }
}
console.log(`\n${body.length}-byte answer, 50 connections, ${seconds} s per run\n| call | | req/s | p50 ms | p99 ms | gateway CPU ms a call |\n|---|---|---|---|---|---|`);
for (const row of rows) console.log(`| ${row.call} | ${row.name} | ${Math.round(row.rps)} | ${row.p50} | ${row.p99} | ${row.cpuMs === null ? '' : row.cpuMs.toFixed(3)} |`);
for (const { call } of calls) {
  const mean = (name) => rows.filter((row) => row.call === call && row.name === name).reduce((sum, row) => sum + row.rps, 0) / rounds;
  console.log(`what the gateway adds per call at saturation, ${call}: ${(1000 / mean('through the gateway') - 1000 / mean('bare server')).toFixed(3)} ms`);
}
gateway.kill('SIGINT');
await new Promise((resolve) => gateway.once('exit', resolve));
bare.close();
process.exit(0);
