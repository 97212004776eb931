#!/usr/bin/env node
// AsyncResource.bind as Nest calls it for every interceptor of every request: Node's own against the platform's
// lean replacement (libs/platform/src/service/lean-async-bind.ts), from the build, with an AsyncLocalStorage in
// use as in the services. Prints the time of one bind and one call of the bound function.
// Usage: npm run build && node bench/bind/run.mjs [binds per round, default 200000]
import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { root } from '../lib.mjs';

const N = Number(process.argv[2] ?? 200_000);
const { leanAsyncResourceBind } = createRequire(import.meta.url)(join(root, 'libs/platform/dist/service/lean-async-bind.js'));

const storage = new AsyncLocalStorage();
storage.enterWith({ request: 1 });

function round() {
  const started = performance.now();
  let sum = 0;
  for (let i = 0; i < N; i++) sum += AsyncResource.bind(() => i)();
  if (sum < 0) throw new Error('unreachable');
  return ((performance.now() - started) * 1000) / N;
}

const node = AsyncResource.bind;
const figures = { node: [], lean: [] };
for (let r = 0; r < 3; r++) {
  AsyncResource.bind = node;
  figures.node.push(round());
  leanAsyncResourceBind();
  figures.lean.push(round());
}
for (const [name, times] of Object.entries(figures)) console.log(`${name.padEnd(5)} ${Math.min(...times).toFixed(2)} µs per bind and call (best of 3 rounds of ${N})`);
