import react from '@vitejs/plugin-react';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';

const PUBLIC = join(__dirname, 'public');

/**
 * Emits /sw.js from sw-template.js: the files of the shell to precache (the entry's scripts and styles and the
 * public files) and a version hashed from everything built, so any change to the app installs a new worker.
 */
function serviceWorker(): Plugin {
  return {
    name: 'shiliu-service-worker',
    apply: 'build',
    generateBundle(_, bundle) {
      const hash = createHash('sha256');
      const shell = new Set(['/offline.html']);
      for (const [name, output] of Object.entries(bundle)) {
        hash.update(name).update(output.type === 'chunk' ? output.code : output.source);
        if (output.type === 'chunk' && output.isEntry) {
          shell.add(`/${name}`);
          for (const imported of output.imports) shell.add(`/${imported}`);
          for (const css of output.viteMetadata?.importedCss ?? []) shell.add(`/${css}`);
        }
      }
      for (const file of readdirSync(PUBLIC)) {
        hash.update(file).update(readFileSync(join(PUBLIC, file)));
        if (/\.(svg|png|webmanifest|js)$/.test(file)) shell.add(`/${file}`);
      }
      const template = readFileSync(join(__dirname, 'sw-template.js'), 'utf8');
      hash.update(template);
      const source = template.replace('__VERSION__', hash.digest('hex').slice(0, 12)).replace('__PRECACHE__', JSON.stringify([...shell].sort()));
      this.emitFile({ type: 'asset', fileName: 'sw.js', source });
    },
  };
}

/** The text files worth precompressing (the gateway serves them by these extensions, libs/gateway/src/web-app.ts). */
const TEXT_FILE = /\.(html|js|mjs|css|svg|json|webmanifest|txt|xml|map)$/;

/** Below this a file goes out as it is: the gateway compresses nothing under 1 KB either. */
const PRECOMPRESS_MIN_BYTES = 1024;

/**
 * Leaves a Brotli (.br, best quality) and a gzip (.gz, best level) copy beside every text file of the build, which
 * the gateway sends to browsers that take them: compressed once here rather than on every request.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'shiliu-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = join(config.root, config.build.outDir);
    },
    closeBundle() {
      const walk = (dir: string): void => {
        for (const entry of readdirSync(dir, { withFileTypes: true })) {
          const file = join(dir, entry.name);
          if (entry.name.startsWith('.')) continue;
          if (entry.isDirectory()) walk(file);
          else if (TEXT_FILE.test(entry.name)) {
            const source = readFileSync(file);
            if (source.length < PRECOMPRESS_MIN_BYTES) continue;
            const brotli = brotliCompressSync(source, {
              params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_SIZE_HINT]: source.length },
            });
            const gzip = gzipSync(source, { level: constants.Z_BEST_COMPRESSION });
            if (brotli.length < source.length) writeFileSync(`${file}.br`, brotli);
            if (gzip.length < source.length) writeFileSync(`${file}.gz`, gzip);
          }
        }
      };
      walk(outDir);
    },
  };
}

export default defineConfig({
  plugins: [react(), serviceWorker(), precompress()],
  // The manifest is the chunk graph the web tests read to prove a student's first page holds no console code.
  build: { outDir: 'dist', emptyOutDir: true, manifest: true },
  server: { proxy: { '/api': 'http://localhost:8080' } },
});
