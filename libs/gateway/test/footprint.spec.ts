import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const repoRoot = join(__dirname, '../../..');

/** The npm packages a fresh Node process has loaded once it has required `entry` (a source file, through ts-node). */
async function packagesLoadedBy(entry: string): Promise<string[]> {
  const script = `
    require('reflect-metadata');
    require(${JSON.stringify(join(repoRoot, entry))});
    const names = new Set();
    for (const file of Object.keys(require.cache)) {
      const found = /node_modules\\/((?:@[^/]+\\/)?[^/]+)/.exec(file);
      if (found && !found[1].startsWith('@shiliu/')) names.add(found[1]);
    }
    process.stdout.write(JSON.stringify([...names]));`;
  const { stdout } = await run(process.execPath, ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', '-e', script], {
    cwd: repoRoot,
    env: { ...process.env, TS_NODE_PROJECT: join(repoRoot, 'tsconfig.base.json') },
  });
  return JSON.parse(stdout) as string[];
}

// What a process without a database, events, a queue or object storage must not pay for: memory it would never use.
const SERVICE_ONLY = ['typeorm', 'pg', 'kafkajs', 'bullmq', 'minio', 'class-validator', '@nestjs/swagger'];

describe('what each process loads', () => {
  it('keeps the distributed gateway free of the services’ clients', async () => {
    // What apps/gateway/src/main.ts imports; requiring main itself would start the gateway.
    const loaded = await packagesLoadedBy('libs/gateway/src/index.ts');
    expect(loaded).toEqual(expect.arrayContaining(['@nestjs/core', 'undici', 'ioredis']));
    expect(loaded.filter((name) => SERVICE_ONLY.includes(name))).toEqual([]);
  }, 60_000);

  it('loads BullMQ only where jobs are queued', async () => {
    const platform = await packagesLoadedBy('libs/platform/src/index.ts');
    expect(platform).toEqual(expect.arrayContaining(['typeorm', 'kafkajs', 'minio']));
    expect(platform).not.toContain('bullmq');
    expect(await packagesLoadedBy('libs/media/src/index.ts')).toContain('bullmq');
  }, 60_000);
});
