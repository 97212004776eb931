import { existsSync, readdirSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import express, { type NextFunction, type Request, type Response } from 'express';
import { acceptedEncodings, type ContentEncoding, varyOnEncoding } from './compression';

const NOT_SPA = /^\/(api|health|metrics)(\/|$)/;

/** The types of the text files the web app's build precompresses (apps/web/vite.config.ts), by extension. */
const TEXT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/** A file the build named by its content (`/assets/name-HASH.js`): a new version is a new name, so it never changes. */
const HASHED = /^\/assets\/.+-[\w-]{8}\.\w+$/;

/** The service worker (apps/web/sw-template.js, built as /sw.js): the browser must see a new one at once. */
const SERVICE_WORKER = '/sw.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';
const OTHER_FILES = 'public, max-age=3600';

/** How long a browser may keep a file of the web app without asking again. */
export function cacheControlOf(path: string): string {
  if (HASHED.test(path)) return IMMUTABLE;
  if (path === SERVICE_WORKER || path === '/index.html') return REVALIDATE;
  return OTHER_FILES;
}

/** The files the build left a Brotli (.br) or gzip (.gz) copy of, by URL path, found once at start-up. */
function precompressedFiles(webDir: string): Map<string, Set<ContentEncoding>> {
  const found = new Map<string, Set<ContentEncoding>>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const file = join(dir, entry.name);
      if (entry.isDirectory()) {
        walk(file);
        continue;
      }
      const encoding = entry.name.endsWith('.br') ? 'br' : entry.name.endsWith('.gz') ? 'gzip' : null;
      if (!encoding) continue;
      const original = file.slice(0, -3);
      if (TEXT_TYPES[extname(original)] === undefined || !existsSync(original)) continue;
      const path = `/${relative(webDir, original).split(sep).join('/')}`;
      const encodings = found.get(path) ?? new Set<ContentEncoding>();
      encodings.add(encoding);
      found.set(path, encodings);
    }
  };
  walk(webDir);
  return found;
}

/**
 * Serves the built web app. Every GET that is neither an API call nor an existing file gets index.html, so
 * the browser's router handles deep links such as /explore or /user/abc; a missing file with an extension
 * (a stale asset) is a plain 404 rather than a page.
 *
 * A text file the build precompressed goes out as its .br copy to a browser that takes br, else as its .gz copy to
 * one that takes gzip, else as it is (and a request for a range always gets the file as it is); any other file is
 * compressed on the way by the gateway's compression if it is worth it. Hashed assets are cached for a year,
 * index.html and the service worker are revalidated every time, other files kept for an hour.
 */
export function webAppMiddleware(webDir: string) {
  const index = join(webDir, 'index.html');
  if (!existsSync(index)) throw new Error(`The web app is not built: ${index} is missing (run the build first)`);
  const precompressed = precompressedFiles(webDir);

  /** Sends `path` (a URL path of a file in webDir) as its precompressed copy if there is one the browser takes; else `plain`. */
  const send = (req: Request, res: Response, path: string, plain: () => void): void => {
    const encodings = precompressed.get(path);
    if (!encodings) {
      plain();
      return;
    }
    varyOnEncoding(res);
    const accepted = acceptedEncodings(req.headers['accept-encoding']);
    const encoding = (['br', 'gzip'] as const).find((candidate) => accepted.has(candidate) && encodings.has(candidate));
    if (!encoding || req.headers.range !== undefined) {
      plain();
      return;
    }
    res.sendFile(
      `${path.slice(1)}.${encoding === 'br' ? 'br' : 'gz'}`,
      {
        root: webDir,
        // A part of the compressed copy means nothing to a client that asks for a range of the file.
        acceptRanges: false,
        cacheControl: false,
        headers: { 'Content-Type': TEXT_TYPES[extname(path)], 'Content-Encoding': encoding, 'Cache-Control': cacheControlOf(path) },
      },
      (error?: Error) => {
        if (!error) return;
        if (res.headersSent) {
          res.destroy();
          return;
        }
        // The copy went away since start-up (a rebuild): the file as it is, if it is still there.
        res.removeHeader('Content-Encoding');
        res.removeHeader('Content-Type');
        res.removeHeader('Cache-Control');
        plain();
      },
    );
  };

  const files = express.static(webDir, {
    index: false,
    fallthrough: true,
    cacheControl: false,
    setHeaders: (res, file) => res.setHeader('Cache-Control', cacheControlOf(`/${relative(webDir, file).split(sep).join('/')}`)),
  });
  return [
    (req: Request, res: Response, next: NextFunction): void => {
      if ((req.method !== 'GET' && req.method !== 'HEAD') || NOT_SPA.test(req.path)) {
        next();
        return;
      }
      if (extname(req.path) === '') {
        // A page of the app: index.html, whichever path the browser's router will show.
        send(req, res, '/index.html', () => {
          res.setHeader('Cache-Control', REVALIDATE);
          res.sendFile(index, { cacheControl: false });
        });
        return;
      }
      send(req, res, req.path, () => files(req, res, next));
    },
  ];
}
