#!/usr/bin/env node
// Web benchmark (issue 16): how much JavaScript and CSS (gzip) the first page and the largest route load, and the
// first and largest contentful paint of /explore with the demo data, measured in headless Chromium against the
// embedded product built from apps/web/dist (run `npx vite build` in apps/web first).
//
// Sizes are the gzip of each file the page actually requested (scripts and styles, lazy route chunks included);
// timings are the median of several cold loads, each in a fresh browser context (no cache, no service worker).
// Targets: first-page JavaScript under 150 KB gzip, LCP under 1.5 s on the local machine.
//
// Usage: infra/local/up && node bench/web/run.mjs [cold loads, default 7]
// Not part of `npm test`: it starts the product and wants the machine to itself.
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { benchEnv, freshDatabase, percentile, root, start, stopAll, waitFor } from '../lib.mjs';

const LOADS = Number(process.argv[2] ?? 7);
// A port the system picks: a fixed one may already hold another product, whose pages would be measured instead.
const PORT = await new Promise((resolve) => {
  const server = createServer().listen(0, '127.0.0.1', () => {
    const { port } = server.address();
    server.close(() => resolve(port));
  });
});
const base = `http://127.0.0.1:${PORT}`;
const dist = join(root, 'apps/web/dist');

const env = benchEnv(['DATABASE_URL']);
const databaseUrl = await freshDatabase(env, 'shiliu_web_bench');
start(env, 'embedded', 'apps/gateway/src/embedded.ts', {
  PORT: String(PORT),
  DATA_DIR: mkdtempSync(join(tmpdir(), 'shiliu-web-bench-')),
  DATABASE_URL: databaseUrl,
  DEMO_DATA: 'true',
  ADMIN_PASSWORD: 'web-bench-admin',
  WEB_DIST_DIR: dist,
});
await waitFor(`${base}/api/health`, 'the embedded product', 600_000);

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const gzipped = (path) => gzipSync(readFileSync(join(dist, path)), { level: 9 }).length;
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

/** The scripts and styles one route loads once it has shown itself, with their gzip sizes. */
async function weigh(route, ready) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, serviceWorkers: 'block' });
  const page = await context.newPage();
  const files = new Set();
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.origin === base && /^\/assets\/.+\.(js|css)$/.test(url.pathname)) files.add(url.pathname);
  });
  await page.goto(`${base}${route}`);
  await page.locator(ready).first().waitFor({ timeout: 60_000 });
  await page.waitForLoadState('networkidle');
  await context.close();
  const js = [...files].filter((file) => file.endsWith('.js')).reduce((sum, file) => sum + gzipped(file), 0);
  const css = [...files].filter((file) => file.endsWith('.css')).reduce((sum, file) => sum + gzipped(file), 0);
  return { route, js, css, files: files.size };
}

/** First and largest contentful paint of one cold load of /explore. */
async function paint() {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, serviceWorkers: 'block' });
  const page = await context.newPage();
  await page.goto(`${base}/explore`);
  await page.locator('article.card .lazy-image.loaded').first().waitFor({ timeout: 60_000 });
  await page.waitForLoadState('networkidle');
  const timings = await page.evaluate(
    () =>
      new Promise((resolve) => {
        const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN;
        new PerformanceObserver((list) => {
          const entries = list.getEntries();
          const last = entries[entries.length - 1];
          // Where the time goes: when the main script, the first feed page and the LCP's own image had arrived.
          const ended = (test) => performance.getEntriesByType('resource').find((entry) => test(entry.name))?.responseEnd ?? NaN;
          resolve({
            fcp,
            lcp: last.startTime,
            element: last.element ? `${last.element.tagName.toLowerCase()}${last.element.className ? `.${String(last.element.className).split(' ')[0]}` : ''} in ${last.element.closest('[class]:not(img)')?.className.split(' ')[0] ?? '?'}` : '?',
            script: ended((name) => /\/assets\/index-.*\.js$/.test(name)),
            feed: ended((name) => name.includes('/api/posts?')),
            image: last.url ? ended((name) => name === last.url) : NaN,
          });
        }).observe({ type: 'largest-contentful-paint', buffered: true });
      }),
  );
  await context.close();
  return timings;
}

try {
  const post = (await (await fetch(`${base}/api/posts?page=1&limit=1`)).json()).data.posts[0].id;
  const routes = [
    ['/explore', 'article.card'],
    [`/post?id=${post}`, '.detail-title'],
    ['/publish', '.publish-page'],
    ['/search_result/all?keyword=%E6%A0%A1%E5%9B%AD', '.search-page'],
    ['/no/such/page', '.not-found'],
  ];
  const weights = [];
  for (const [route, ready] of routes) weights.push(await weigh(route, ready));
  await paint(); // a first load warms the server's own caches, as a visitor after the first would find them
  const runs = [];
  for (let i = 0; i < LOADS; i++) runs.push(await paint());
  const first = weights[0];
  const largest = weights.reduce((max, each) => (each.js + each.css > max.js + max.css ? each : max));
  console.log('\nroute                                   JS (gzip)   CSS (gzip)  files');
  for (const each of weights) console.log(`${each.route.slice(0, 38).padEnd(40)}${kb(each.js).padStart(9)}   ${kb(each.css).padStart(9)}   ${String(each.files).padStart(4)}`);
  const median = (key) => percentile(runs.map((run) => run[key]), 0.5);
  console.log(`\nfirst page (/explore): ${kb(first.js)} JS + ${kb(first.css)} CSS; largest route (${largest.route}): ${kb(largest.js)} JS + ${kb(largest.css)} CSS`);
  console.log(`/explore over ${LOADS} cold loads: FCP median ${median('fcp').toFixed(0)} ms, LCP median ${median('lcp').toFixed(0)} ms (p90 ${percentile(runs.map((run) => run.lcp), 0.9).toFixed(0)} ms)`);
  const at = (key) => percentile(runs.map((run) => run[key]), 0.5).toFixed(0);
  console.log(`LCP element: ${[...new Set(runs.map((run) => run.element))].join(', ')}; medians: main script in ${at('script')} ms, first feed page in ${at('feed')} ms, LCP image in ${at('image')} ms`);
  console.log(`targets: first-page JS < 150 KB gzip ${first.js < 150 * 1024 ? 'met' : 'MISSED'}; LCP < 1500 ms ${median('lcp') < 1500 ? 'met' : 'MISSED'}`);
} finally {
  await browser.close();
  stopAll();
}
