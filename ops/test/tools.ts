import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const root = join(__dirname, '..', '..');

/** A checker that scripts/lib.mjs (installTools, installOpsTools) puts under .tools; missing, the check fails. */
export function tool(relative: string): string {
  const path = join(root, '.tools', relative);
  if (!existsSync(path)) throw new Error(`${path} is missing: npm test installs it (scripts/lib.mjs, installOpsTools and installTools)`);
  return path;
}

export interface Outcome {
  status: number | null;
  output: string;
}

export function execute(command: string, args: string[], cwd = root): Outcome {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw result.error;
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}
