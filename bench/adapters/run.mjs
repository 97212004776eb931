#!/usr/bin/env node
// What Nest's pipeline costs a call on Express against Fastify (@nestjs/platform-fastify), without a database: the
// same application (bench/adapters/app.mjs) on each adapter in turn, a note's detail and a like at 50 connections,
// each round alternating the adapters. Prints req/s, p99 and the CPU the application process spent a request.
// Usage: npm run build && node bench/adapters/run.mjs [seconds per case, default 10] [rounds, default 2]
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { cpuSecondsOf } from '../lib.mjs';

const seconds = Number(process.argv[2] ?? 10);
const rounds = Number(process.argv[3] ?? 2);
const port = 39_555;
const cases = [
  ['note detail', { url: `http://127.0.0.1:${port}/api/posts/5` }],
  ['like', { url: `http://127.0.0.1:${port}/api/likes`, method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"target_type":1,"target_id":5}' }],
];

console.log(`| round | adapter | call | req/s | p99 ms | CPU ms a request |\n|---|---|---|---|---|---|`);
for (let round = 1; round <= rounds; round++) {
  for (const adapter of ['express', 'fastify']) {
    const app = fork(join(dirname(fileURLToPath(import.meta.url)), 'app.mjs'), [adapter, String(port)]);
    await once(app, 'message');
    for (const [name, options] of cases) {
      await autocannon({ ...options, connections: 50, duration: 2 });
      const before = cpuSecondsOf({ app: app.pid }).app;
      const result = await autocannon({ ...options, connections: 50, duration: seconds });
      const used = cpuSecondsOf({ app: app.pid }).app - before;
      if (result.non2xx > 0) throw new Error(`${adapter} answered ${result.non2xx} calls of ${name} with an error`);
      console.log(`| ${round} | ${adapter} | ${name} | ${Math.round(result.requests.average)} | ${result.latency.p99} | ${((1000 * used) / result.requests.total).toFixed(3)} |`);
    }
    app.kill();
    await once(app, 'exit');
  }
}
