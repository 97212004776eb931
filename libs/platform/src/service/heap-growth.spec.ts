import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * The largest old space (MB) a process reaches while objects that live long enough to be promoted keep dying over a
 * steady set of live ones, as a service's requests do over its caches and modules.
 */
async function peakOldSpace(bounded: boolean): Promise<number> {
  const script = `
    const v8 = require('node:v8');
    ${bounded ? `require(${JSON.stringify(join(__dirname, 'heap-growth.ts'))}).boundHeapGrowth();` : ''}
    const live = Array.from({ length: 300000 }, (_, i) => ({ id: i, name: 'live-' + i, tags: [i, i + 1] }));
    const ring = new Array(50000);
    let peak = 0;
    for (let i = 0; i < 6000000; i++) {
      ring[i % ring.length] = { id: i, text: 'churn-' + i, more: [i] };
      if (i % 10000 === 0) peak = Math.max(peak, v8.getHeapSpaceStatistics().find((space) => space.space_name === 'old_space').space_size);
    }
    process.stdout.write(String(live.length && peak / 1048576));`;
  const { stdout } = await run(process.execPath, ['-r', 'ts-node/register/transpile-only', '-e', script], { env: { ...process.env, TS_NODE_PROJECT: join(__dirname, '../../tsconfig.json') } });
  return Number(stdout);
}

describe('the heap growth a service process allows itself', () => {
  it('keeps the old space well under what V8 lets it grow to by default', async () => {
    const [unbounded, bounded] = await Promise.all([peakOldSpace(false), peakOldSpace(true)]);
    expect(unbounded).toBeGreaterThan(0);
    expect(bounded).toBeLessThan(unbounded * 0.7);
  }, 60_000);
});
