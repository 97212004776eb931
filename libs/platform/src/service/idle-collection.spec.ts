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

/**
 * V8's own collections the child runs without: incremental marking begun during a burst, finished while the process
 * is quiet, and the memory reducer. Either may or may not give back a burst's garbage before the rule fires,
 * depending on how its threads were scheduled; without them, the garbage is known to be there when it does.
 */
const NO_BACKGROUND_COLLECTION = ['--no-incremental-marking', '--no-concurrent-marking', '--no-memory-reducer'];

/** Heap in use (MB) right after a burst that leaves its objects behind, then as the rule says to collect and once it has. */
async function heapAroundIdleCollection(): Promise<{ afterBurst: number; beforeCollection: number; afterCollection: number }> {
  const script = `
    const v8 = require('node:v8');
    const { collectWhenIdle, IdleCollectionRule } = require(${JSON.stringify(join(__dirname, 'idle-collection.ts'))});
    const inUse = () => v8.getHeapStatistics().used_heap_size / ${MB};
    const heap = {};
    class Watched extends IdleCollectionRule {
      shouldCollect(utilisation, nowMs) {
        const collect = super.shouldCollect(utilisation, nowMs);
        if (collect) heap.beforeCollection = inUse();
        return collect;
      }
      collected(nowMs) {
        super.collected(nowMs);
        heap.afterCollection = inUse();
        process.stdout.write(JSON.stringify(heap));
        process.exit(0);
      }
    }
    collectWhenIdle(100, new Watched(2));
    let burst = [];
    for (let i = 0; i < 600000; i++) burst.push({ id: i, text: 'burst-' + i, more: [i] });
    burst = null;
    heap.afterBurst = inUse();
    // The rule's timer does not keep a process alive; this one does until the collection ends it.
    setInterval(() => undefined, 1000);`;
  const { stdout } = await run(process.execPath, [...NO_BACKGROUND_COLLECTION, '-r', 'ts-node/register/transpile-only', '-e', script], {
    env: { ...process.env, TS_NODE_PROJECT: join(__dirname, '../../tsconfig.json') },
  });
  return JSON.parse(stdout);
}

describe('collecting when idle', () => {
  // How much V8 left resident by itself after load, with its defaults, is bench/hot-paths' figure.
  it('gives back a burst’s garbage once the process is quiet', async () => {
    const heap = await heapAroundIdleCollection();
    expect(heap.afterBurst).toBeGreaterThan(40);
    expect(heap.beforeCollection).toBeGreaterThan(heap.afterBurst * 0.8);
    expect(heap.afterCollection).toBeLessThan(heap.afterBurst * 0.5);
  }, 60_000);
});
