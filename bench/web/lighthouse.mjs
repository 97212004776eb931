#!/usr/bin/env node
// Lighthouse (issue 37): /explore and a note's page (/post?id=…) with the demo data, in Lighthouse's default mobile
// profile (a phone's screen, simulated Slow 4G, CPU 4× slower), against the embedded product serving apps/web/dist
// (build it first: `npx nx run-many -t build`). Prints each category's score, LCP, TBT, CLS, the bytes transferred,
// and the first load's JavaScript as transferred (compressed). Each page is audited several times, cold, and the run
// with the median performance score is shown.
//
// Targets: performance ≥ 90, accessibility ≥ 95, best practices ≥ 95, SEO ≥ 90; LCP ≤ 2.5 s; CLS ≤ 0.05;
// first-load JavaScript ≤ 120 KB; the feed's first screen ≤ 400 KB.
//
// Usage: infra/local/up && node bench/web/lighthouse.mjs [runs per page, default 3]
// WEB_DIST_DIR=<another build of apps/web> audits that build instead, to compare two side by side.
// The median runs' full reports are left in tmp/lighthouse/ (open them in the Lighthouse viewer).
// Not part of `npm test`: it starts the product and wants the machine to itself.
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchEnv, freshDatabase, root, sleep, start, stopAll, waitFor } from '../lib.mjs';

const RUNS = Number(process.argv[2] ?? 3);
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const TARGETS = { performance: 90, accessibility: 95, 'best-practices': 95, seo: 90 };

// A port the system picks: a fixed one may already hold another product, whose pages would be measured instead.
const PORT = await new Promise((resolve) => {
  const server = createServer().listen(0, '127.0.0.1', () => {
    const { port } = server.address();
    server.close(() => resolve(port));
  });
});
const base = `http://127.0.0.1:${PORT}`;

const env = benchEnv(['DATABASE_URL']);
const databaseUrl = await freshDatabase(env, 'shiliu_lighthouse_bench');
start(env, 'embedded', 'apps/gateway/src/embedded.ts', {
  PORT: String(PORT),
  DATA_DIR: mkdtempSync(join(tmpdir(), 'shiliu-lighthouse-')),
  DATABASE_URL: databaseUrl,
  DEMO_DATA: 'true',
  ADMIN_PASSWORD: 'lighthouse-bench-admin',
  WEB_DIST_DIR: process.env.WEB_DIST_DIR ?? join(root, 'apps/web/dist'),
});
await waitFor(`${base}/api/health`, 'the embedded product', 600_000);

/** The demo images get their shown widths from media's backfill, whose next pass follows the seed: waits for them. */
async function widthsReady(notes) {
  const covers = notes.map((note) => note.image).filter((url) => /\.(jpe?g|png|webp)$/.test(url ?? ''));
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    const answers = await Promise.all(covers.map((url) => fetch(`${base}${url.replace(/\.[^./]+$/, '.w400.webp')}`, { method: 'HEAD' })));
    if (answers.every((answer) => answer.ok)) return;
    await sleep(2000);
  }
  throw new Error('the covers have no shown widths after 5 minutes: is the media backfill running?');
}

const REPORTS = join(root, 'tmp/lighthouse');
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

/** One cold Lighthouse run of `url`: scores and the figures the issue asks for. */
async function audit(chrome, url) {
  const { lhr } = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES });
  if (lhr.runtimeError) console.log(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const requests = lhr.audits['network-requests'].details.items;
  const scripts = requests.filter((request) => request.resourceType === 'Script');
  return {
    scores: Object.fromEntries(CATEGORIES.map((id) => [id, Math.round(lhr.categories[id].score * 100)])),
    lcp: lhr.audits['largest-contentful-paint'].numericValue,
    fcp: lhr.audits['first-contentful-paint'].numericValue,
    tbt: lhr.audits['total-blocking-time'].numericValue,
    cls: lhr.audits['cumulative-layout-shift'].numericValue,
    bytes: lhr.audits['total-byte-weight'].numericValue,
    js: scripts.reduce((sum, request) => sum + request.transferSize, 0),
    requests: requests.length,
    lhr,
    failing: Object.values(lhr.audits)
      .filter((each) => each.score !== null && each.score < 0.9 && each.scoreDisplayMode !== 'informative' && each.scoreDisplayMode !== 'manual' && each.scoreDisplayMode !== 'notApplicable')
      .map((each) => each.id),
  };
}

const chrome = await launch({ chromePath: '/usr/bin/chromium', chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'] });
try {
  const feed = (await (await fetch(`${base}/api/posts?page=1&limit=10`)).json()).data.posts;
  await widthsReady(feed);
  const post = feed.find((note) => note.type === 1)?.id ?? feed[0].id;
  const pages = ['/explore', `/post?id=${post}`];
  await audit(chrome, `${base}/explore`); // a first load warms the server's own caches, as a visitor after the first would find them
  const results = [];
  for (const page of pages) {
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await audit(chrome, `${base}${page}`));
    runs.sort((a, b) => a.scores.performance - b.scores.performance);
    const median = runs[Math.floor(runs.length / 2)];
    results.push({ page, median, performance: runs.map((run) => run.scores.performance) });
    mkdirSync(REPORTS, { recursive: true });
    writeFileSync(join(REPORTS, `${page.split('?')[0].slice(1)}.json`), JSON.stringify(median.lhr));
  }

  console.log(`\nLighthouse 12.2.3, mobile (simulated Slow 4G, 4× CPU), median of ${RUNS} cold runs by performance score`);
  console.log('page                 perf  a11y  best   seo   FCP ms   LCP ms   TBT ms    CLS    transferred   JS (compressed)  requests');
  for (const { page, median: run } of results) {
    const s = run.scores;
    console.log(
      `${page.padEnd(20)}${String(s.performance).padStart(5)}${String(s.accessibility).padStart(6)}${String(s['best-practices']).padStart(6)}${String(s.seo).padStart(6)}` +
        `${run.fcp.toFixed(0).padStart(9)}${run.lcp.toFixed(0).padStart(9)}${run.tbt.toFixed(0).padStart(9)}${run.cls.toFixed(3).padStart(8)}${kb(run.bytes).padStart(14)}${kb(run.js).padStart(18)}${String(run.requests).padStart(10)}`,
    );
  }
  for (const { page, median: run, performance } of results) {
    console.log(`${page}: performance over the runs ${performance.join(', ')}; audits under 90: ${run.failing.join(', ') || 'none'}`);
  }
  const explore = results[0].median;
  const met = (ok) => (ok ? 'met' : 'MISSED');
  for (const { page, median: run } of results) {
    const scores = CATEGORIES.map((id) => `${id} ≥ ${TARGETS[id]} ${met(run.scores[id] >= TARGETS[id])}`).join('; ');
    console.log(`targets ${page}: ${scores}; LCP ≤ 2.5 s ${met(run.lcp <= 2500)}; CLS ≤ 0.05 ${met(run.cls <= 0.05)}; first-load JS ≤ 120 KB ${met(run.js <= 120 * 1024)}`);
  }
  console.log(`targets /explore first screen ≤ 400 KB: ${met(explore.bytes <= 400 * 1024)} (${kb(explore.bytes)})`);
} finally {
  await chrome.kill();
  await stopAll();
}
