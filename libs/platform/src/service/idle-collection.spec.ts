import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { IdleCollectionRule } from './idle-collection';

const MB = 1024 * 1024;
const run = promisify(execFile);

describe('IdleCollectionRule', () => {
  it('collects after two quiet seconds once the old generation has grown', () => {
    const rule = new IdleCollectionRule(50 * MB);
    expect(rule.shouldCollect(0.9, 120 * MB, 1_000)).toBe(false);
    expect(rule.shouldCollect(0.01, 120 * MB, 2_000)).toBe(false);
    expect(rule.shouldCollect(0.01, 120 * MB, 3_000)).toBe(true);
  });

  it('waits for two quiet seconds in a row', () => {
    const rule = new IdleCollectionRule(50 * MB);
    expect(rule.shouldCollect(0.01, 120 * MB, 1_000)).toBe(false);
    expect(rule.shouldCollect(0.03, 120 * MB, 2_000)).toBe(false);
    expect(rule.shouldCollect(0.01, 120 * MB, 3_000)).toBe(false);
    expect(rule.shouldCollect(0.01, 120 * MB, 4_000)).toBe(true);
  });

  it('leaves a quiet process alone when its old generation has not grown', () => {
    const rule = new IdleCollectionRule(50 * MB);
    for (let second = 1; second <= 10; second++) expect(rule.shouldCollect(0, 53 * MB, second * 1_000)).toBe(false);
  });

  it('collects at most once in ten seconds, however much a trickle of calls promotes', () => {
    const rule = new IdleCollectionRule(50 * MB);
    rule.shouldCollect(0, 60 * MB, 1_000);
    expect(rule.shouldCollect(0, 60 * MB, 2_000)).toBe(true);
    rule.collected(50 * MB, 2_000);
    rule.shouldCollect(0, 60 * MB, 3_000);
    expect(rule.shouldCollect(0, 60 * MB, 4_000)).toBe(false);
    expect(rule.shouldCollect(0, 60 * MB, 11_000)).toBe(false);
    expect(rule.shouldCollect(0, 60 * MB, 12_000)).toBe(true);
  });

  it('measures growth from the last full collection, its own or V8’s', () => {
    const rule = new IdleCollectionRule(50 * MB);
    // V8 collected by itself down to 40 MB; 45 MB is growth enough from there, though not from 50.
    expect(rule.shouldCollect(0.5, 40 * MB, 1_000)).toBe(false);
    rule.shouldCollect(0, 45 * MB, 2_000);
    expect(rule.shouldCollect(0, 45 * MB, 3_000)).toBe(true);
    rule.collected(42 * MB, 3_000);
    rule.shouldCollect(0, 45 * MB, 20_000);
    expect(rule.shouldCollect(0, 45 * MB, 21_000)).toBe(false);
  });
});

/** Heap in use (MB) right after a burst that leaves its objects behind, and a second and a half later. */
async function heapAfterBurst(collecting: boolean): Promise<{ afterBurst: number; later: number }> {
  const script = `
    const v8 = require('node:v8');
    ${collecting ? `require(${JSON.stringify(join(__dirname, 'idle-collection.ts'))}).collectWhenIdle(100);` : ''}
    let burst = [];
    for (let i = 0; i < 600000; i++) burst.push({ id: i, text: 'burst-' + i, more: [i] });
    burst = null;
    const afterBurst = v8.getHeapStatistics().used_heap_size;
    setTimeout(() => process.stdout.write(JSON.stringify({ afterBurst: afterBurst / ${MB}, later: v8.getHeapStatistics().used_heap_size / ${MB} })), 1500);`;
  const { stdout } = await run(process.execPath, ['-r', 'ts-node/register/transpile-only', '-e', script], { env: { ...process.env, TS_NODE_PROJECT: join(__dirname, '../../tsconfig.json') } });
  return JSON.parse(stdout);
}

describe('collecting when idle', () => {
  it('gives back a burst’s garbage once the process is quiet, which V8 alone does not', async () => {
    const [alone, collecting] = await Promise.all([heapAfterBurst(false), heapAfterBurst(true)]);
    expect(alone.afterBurst).toBeGreaterThan(40);
    expect(alone.later).toBeGreaterThan(alone.afterBurst * 0.8);
    expect(collecting.afterBurst).toBeGreaterThan(40);
    expect(collecting.later).toBeLessThan(collecting.afterBurst * 0.5);
  }, 60_000);
});
