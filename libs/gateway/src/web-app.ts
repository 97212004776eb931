import { existsSync } from 'node:fs';
import { extname, join } from 'node:path';
import express, { type NextFunction, type Request, type Response } from 'express';

const NOT_SPA = /^\/(api|health|metrics)(\/|$)/;

/**
 * Serves the built web app. Every GET that is neither an API call nor an existing file gets index.html, so
 * the browser's router handles deep links such as /explore or /user/abc; a missing file with an extension
 * (a stale asset) is a plain 404 rather than a page.
 */
export function webAppMiddleware(webDir: string) {
  const index = join(webDir, 'index.html');
  if (!existsSync(index)) throw new Error(`The web app is not built: ${index} is missing (run the build first)`);
  const files = express.static(webDir, { index: false, maxAge: '1h', fallthrough: true });
  return [
    files,
    (req: Request, res: Response, next: NextFunction): void => {
      if ((req.method !== 'GET' && req.method !== 'HEAD') || NOT_SPA.test(req.path) || extname(req.path) !== '') {
        next();
        return;
      }
      res.setHeader('Cache-Control', 'no-cache');
      res.sendFile(index);
    },
  ];
}
