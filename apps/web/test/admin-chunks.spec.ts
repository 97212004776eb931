import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// The build (`vite build`, run before the tests) writes its chunk graph here.
const DIST = join(__dirname, '../dist');
const MANIFEST = join(DIST, '.vite/manifest.json');

interface Chunk {
  file: string;
  src?: string;
  name?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

/** Strings only console modules hold: its storage key, its monitor call, its docs page's empty message, a screen title. */
const CONSOLE_MARKERS = ['admin_refresh_token', '/api/admin/monitor/activities', '未找到匹配的接口', '认证管理'];

describe("the build's chunk graph", () => {
  const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8')) as Record<string, Chunk>;
  const [entryKey] = Object.entries(manifest).find(([, chunk]) => chunk.isEntry)!;
  /** A chunk and everything it imports statically: what the browser downloads with it. */
  const closure = (key: string, seen = new Set<string>()): Set<string> => {
    if (seen.has(key)) return seen;
    seen.add(key);
    for (const next of manifest[key].imports ?? []) closure(next, seen);
    return seen;
  };
  const isConsole = (key: string) => key.startsWith('src/admin/') || manifest[key].src?.startsWith('src/admin/') === true || manifest[key].name === 'AdminApp';
  const code = (keys: Iterable<string>) => [...keys].map((key) => readFileSync(join(DIST, manifest[key].file), 'utf8')).join('\n');
  const consoleKeys = Object.keys(manifest).filter(isConsole);

  it('keeps every console module out of the entry chunk and its static imports', () => {
    const first = closure(entryKey);
    expect([...first].filter(isConsole)).toEqual([]);
    expect(consoleKeys.length).toBeGreaterThanOrEqual(5);
    const firstCss = [...first].flatMap((key) => manifest[key].css ?? []);
    const consoleCss = consoleKeys.flatMap((key) => manifest[key].css ?? []);
    expect(consoleCss.length).toBeGreaterThan(0);
    expect(firstCss.filter((file) => consoleCss.includes(file))).toEqual([]);
  });

  it('loads the console only through a dynamic import of the entry', () => {
    const staticallyImported = Object.values(manifest).flatMap((chunk) => chunk.imports ?? []);
    for (const key of consoleKeys) expect(manifest[entryKey].imports ?? []).not.toContain(key);
    expect((manifest[entryKey].dynamicImports ?? []).some(isConsole)).toBe(true);
    // Console chunks import each other and the shared entry, never the other way round.
    const importers = Object.entries(manifest).filter(([, chunk]) => chunk.imports?.some(isConsole)).map(([key]) => key);
    expect(importers.every(isConsole)).toBe(true);
    expect(staticallyImported.filter(isConsole).every((key) => consoleKeys.includes(key))).toBe(true);
  });

  it("has none of the console's code in what a student's pages download", () => {
    const studentPages = (manifest[entryKey].dynamicImports ?? []).filter((key) => !isConsole(key));
    const student = new Set([...closure(entryKey), ...studentPages.flatMap((key) => [...closure(key)])]);
    const studentCode = code(student);
    const consoleCode = code(consoleKeys);
    for (const marker of CONSOLE_MARKERS) {
      expect(consoleCode).toContain(marker);
      expect(studentCode).not.toContain(marker);
    }
  });
});
