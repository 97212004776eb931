import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** What a process prints, and how it ends, when a promise nobody handles is rejected while it serves. */
async function afterAnUnhandledRejection(logging: boolean): Promise<{ code: number; stdout: string }> {
  const script = `
    const pino = require('pino');
    const { logUnhandledRejections } = require(${JSON.stringify(join(__dirname, 'unhandled-rejections.ts'))});
    ${logging ? 'logUnhandledRejections(pino());' : ''}
    Promise.reject(new Error('nobody awaited this'));
    setTimeout(() => { process.stdout.write('still serving\\n'); process.exit(0); }, 200);`;
  try {
    const { stdout } = await run(process.execPath, ['-r', 'ts-node/register/transpile-only', '-e', script], {
      env: { ...process.env, TS_NODE_PROJECT: join(__dirname, '../../tsconfig.json') },
    });
    return { code: 0, stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, stdout: failed.stdout };
  }
}

describe('logUnhandledRejections', () => {
  it('logs the rejection and keeps the process serving', async () => {
    const { code, stdout } = await afterAnUnhandledRejection(true);
    expect(code).toBe(0);
    const [logged, alive] = stdout.trim().split('\n');
    expect(JSON.parse(logged)).toMatchObject({ level: 50, msg: 'a rejected promise was not handled; the process goes on serving', err: { message: 'nobody awaited this' } });
    expect(alive).toBe('still serving');
  });

  it('is what keeps it alive: without it, Node ends the process', async () => {
    const { code, stdout } = await afterAnUnhandledRejection(false);
    expect(code).not.toBe(0);
    expect(stdout).not.toContain('still serving');
  });
});
