#!/usr/bin/env node
// Where a process's CPU went, from a .cpuprofile (node --cpu-prof; run.mjs writes them with PROFILE_DIR): self time
// by area (the package or workspace folder a function lives in), and the heaviest functions. Start-up is left out:
// the window begins after the last sample loading modules (or in ts-node's TypeScript compiler, when run from source)
// in the first half of the profile.
// Usage: node bench/hot-paths/profile-summary.mjs <file.cpuprofile> [functions to list, default 25]
import { readFileSync } from 'node:fs';

const [file, top = '25'] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const compiling = (id) => {
  const url = byId.get(id).callFrame.url ?? '';
  return url.includes('node_modules/typescript/') || url.startsWith('node:internal/modules/');
};
let from = 0;
// Only the first half: shutting down loads a module or two as well.
for (let i = 0; i < profile.samples.length / 2; i++) if (compiling(profile.samples[i])) from = i + 1;
const self = new Map();
for (let i = from; i < profile.samples.length; i++) {
  const dt = profile.timeDeltas[i] ?? 0;
  self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + dt);
}

/** The area a function belongs to: an npm package, a workspace library, node's internals, or V8's own work. */
function areaOf(frame) {
  const url = frame.url ?? '';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  const lib = /\/(libs|apps)\/([^/]+)\//.exec(url);
  if (lib) return `${lib[1]}/${lib[2]}`;
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  return frame.functionName ? `(${frame.functionName})` : '(native)';
}

const total = [...self.values()].reduce((a, b) => a + b, 0);
const idle = [...self.entries()].filter(([id]) => ['(idle)', '(program)'].includes(byId.get(id).callFrame.functionName)).reduce((a, [, t]) => a + t, 0);
const areas = new Map();
const functions = new Map();
for (const [id, time] of self) {
  const frame = byId.get(id).callFrame;
  if (frame.functionName === '(idle)') continue;
  areas.set(areaOf(frame), (areas.get(areaOf(frame)) ?? 0) + time);
  const name = `${frame.functionName || '(anonymous)'} ${(frame.url ?? '').replace(/^.*node_modules\//, '').replace(/^.*\/work\/[^/]+\//, '')}:${frame.lineNumber + 1}`;
  functions.set(name, (functions.get(name) ?? 0) + time);
}
const busy = total - idle;
const pct = (t) => `${((t / busy) * 100).toFixed(1).padStart(5)}%`;
console.log(`${file}: ${(total / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(1)} s busy (shares below are of busy time)\n`);
console.log('area');
for (const [area, time] of [...areas].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`  ${pct(time)}  ${area}`);
console.log('\nfunctions (self time)');
for (const [name, time] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, Number(top))) console.log(`  ${pct(time)}  ${name}`);
