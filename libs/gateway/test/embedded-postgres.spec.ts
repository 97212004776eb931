import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@shiliu/platform';
import { startEmbeddedPostgres } from '../src/embedded-postgres';

/**
 * The embedded default's database: a busy port is named before anything is written. (Starting the server itself
 * needs the ESM-only package, which Jest cannot load: apps/gateway/test/embedded.spec.ts starts it, on a free port.)
 */
describe('embedded PostgreSQL', () => {
  const logger = createLogger('test', 'silent');
  const dataDir = mkdtempSync(join(tmpdir(), 'shiliu-pg-'));
  const directory = join(dataDir, 'postgres');
  let busy: Server;

  beforeAll(async () => {
    busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', () => resolve()));
  });

  afterAll(async () => {
    await new Promise((resolve) => busy.close(resolve));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('names a configured port that another program holds, and leaves no half-made data folder', async () => {
    const port = (busy.address() as { port: number }).port;
    await expect(startEmbeddedPostgres(directory, port, logger)).rejects.toThrow(`EMBEDDED_PG_PORT: port ${port} is already in use by another program`);
    expect(existsSync(join(directory, 'PG_VERSION'))).toBe(false);
  });
});
