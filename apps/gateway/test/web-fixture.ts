import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A stand-in for the built web app: an index page and one asset. */
export function webFixture(): string {
  const dir = mkdtempSync(join(tmpdir(), 'shiliu-web-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><html><body><div id="root"></div></body></html>');
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'assets', 'app.js'), 'console.log("app")');
  return dir;
}
