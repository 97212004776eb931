import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';

/** The stand-in's hashed script, as the build names one, and its text: large enough for the build to precompress it. */
export const HASHED_ASSET = '/assets/index-AbC_12-x.js';
export const HASHED_SOURCE = `${'export const line = "一行又一行的脚本";\n'.repeat(200)}console.log("app")\n`;

/**
 * A stand-in for the built web app: an index page, one plain asset, a hashed one with the Brotli and gzip copies the
 * build leaves beside it, an icon and the service worker.
 */
export function webFixture(): string {
  const dir = mkdtempSync(join(tmpdir(), 'shiliu-web-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><html><body><div id="root"></div></body></html>');
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'assets', 'app.js'), 'console.log("app")');
  const hashed = join(dir, HASHED_ASSET);
  writeFileSync(hashed, HASHED_SOURCE);
  writeFileSync(`${hashed}.br`, brotliCompressSync(HASHED_SOURCE));
  writeFileSync(`${hashed}.gz`, gzipSync(HASHED_SOURCE));
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>');
  writeFileSync(join(dir, 'sw.js'), 'self.addEventListener("fetch", () => undefined);');
  return dir;
}
