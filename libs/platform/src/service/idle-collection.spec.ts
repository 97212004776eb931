import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { IdleCollectionRule } from './idle-collection';

const MB = 1024 * 1024;
const run = promisify(execFile);

describe('IdleCollectionRule', () => {
  it('collects after ten quiet seconds that follow work', () => {
    const rule = new IdleCollectionRule();
    expect(rule.shouldCollect(0.9, 1_000)).toBe(false);
    for (let second = 2; second <= 10; second++) expect(rule.shouldCollect(0.01, second * 1_000)).toBe(false);
    expect(rule.shouldCollect(0.01, 11_000)).toBe(true);
  });

  it('waits for ten quiet seconds in a row', () => {
    const rule = new IdleCollectionRule();
    rule.shouldCollect(0.9, 1_000);
    for (let second = 2; second <= 10; second++) rule.shouldCollect(0.01, second * 1_000);
    expect(rule.shouldCollect(0.03, 11_000)).toBe(false);
    for (let second = 12; second <= 20; second++) expect(rule.shouldCollect(0.01, second * 1_000)).toBe(false);
    expect(rule.shouldCollect(0.01, 21_000)).toBe(true);
  });

  it('leaves a process alone that has done no work since its last collection', () => {
    const rule = new IdleCollectionRule();
    for (let second = 1; second <= 60; second++) expect(rule.shouldCollect(0.05, second * 1_000) || rule.shouldCollect(0, second * 1_000 + 500)).toBe(false);
  });

  it('collects at most once in twenty seconds, however often short bursts come', () => {
    const rule = new IdleCollectionRule(1);
    rule.shouldCollect(0.5, 1_000);
    expect(rule.shouldCollect(0, 2_000)).toBe(true);
    rule.collected(2_000);
    rule.shouldCollect(0.5, 3_000);
    expect(rule.shouldCollect(0, 4_000)).toBe(false);
    expect(rule.shouldCollect(0, 21_000)).toBe(false);
    expect(rule.shouldCollect(0, 22_000)).toBe(true);
  });
});

/** Heap in use (MB) right after a burst that leaves its objects behind, and a second and a half later. */
async function heapAfterBurst(collecting: boolean): Promise<{ afterBurst: number; later: number }> {
  const script = `
    const v8 = require('node:v8');
    if (${collecting}) {
      const { collectWhenIdle, IdleCollectionRule } = require(${JSON.stringify(join(__dirname, 'idle-collection.ts'))});
      collectWhenIdle(100, new IdleCollectionRule(2));
    }
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
