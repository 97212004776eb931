import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const repoRoot = join(__dirname, '../../..');
/** Installed, pinned, by `npm test` (scripts/lib.mjs installTools) into a virtualenv of the project's own. */
export const SCHEMATHESIS = join(repoRoot, '.tools/schemathesis/bin/st');

export interface SchemathesisRun {
  exitCode: number | null;
  output: string;
}

export const API_DOCUMENT = join(repoRoot, 'libs/contracts/openapi.json');

/** Runs `st run` against a document (the checked-in one) and the given origin; never throws on findings, the test reads them. */
export async function runSchemathesis(baseUrl: string, args: string[], options: { configFile?: string; document?: string } = {}): Promise<SchemathesisRun> {
  const { configFile, document = API_DOCUMENT } = options;
  if (!existsSync(SCHEMATHESIS)) throw new Error(`${SCHEMATHESIS} is missing: npm test installs it (installTools in scripts/lib.mjs)`);
  const child = spawn(SCHEMATHESIS, [...(configFile ? ['--config-file', configFile] : []), 'run', document, '--url', baseUrl, '--no-color', '--generation-database', 'none', '--output-sanitize', 'false', ...args], {
    // Schemathesis keeps a cache of what it found in its working directory: a temporary one, not the checkout.
    cwd: mkdtempSync(join(tmpdir(), 'shiliu-schemathesis-')),
    env: { ...process.env, SCHEMATHESIS_TELEMETRY: 'false', PYTHONIOENCODING: 'utf-8' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exitCode = await new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { exitCode, output };
}

export interface Finding {
  /** `METHOD /path` as the document names the operation. */
  operation: string;
  /** The failed checks, e.g. `ST103 Undocumented status code`. */
  checks: string[];
  /** The statuses the failing answers had. */
  statuses: number[];
  /** Schemathesis's own account of it: the request to reproduce it and the answer. */
  detail: string;
}

/** The findings of a run, read from its FAILURES section (one block per operation). */
export function findingsOf(output: string): Finding[] {
  const failures = /^=+ FAILURES =+$([\s\S]*?)^=+ (?:WARNINGS|SUMMARY) =+$/m.exec(output)?.[1] ?? '';
  return failures
    .split(/^_{3,} (?=\S+ \S+ _{3,}$)/m)
    .slice(1)
    .map((block) => ({
      operation: /^(\S+ \S+) _{3,}$/m.exec(block)![1],
      checks: [...new Set([...block.matchAll(/^- (ST\d+ .+)$/gm)].map((match) => match[1].trim()))],
      statuses: [...new Set([...block.matchAll(/Received: (\d{3})|^\[(\d{3})\] /gm)].map((match) => Number(match[1] ?? match[2])))],
      detail: block.trim(),
    }));
}

/** Server errors: the fuzz run's concern, reported by it, not a contract finding. */
export function isServerErrorOnly(finding: Finding): boolean {
  return finding.checks.every((check) => /^ST10[13] /.test(check)) && finding.statuses.length > 0 && finding.statuses.every((status) => status >= 500);
}
