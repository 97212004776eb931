import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:net';
import { Client } from 'pg';
import { assertRunning, freePort, openEventStream, spawnTs, stopProcess, waitFor } from '@shiliu/platform/testing';

const entry = join(__dirname, '../src/embedded.ts');
const webDir = join(__dirname, '../../web/dist');

/**
 * What `npm start` runs: one process with the gateway and every service module on embedded PostgreSQL.
 * It serves the API and the web app, stops cleanly on Ctrl-C, and keeps its data across a restart.
 */
describe('embedded default (npm start)', () => {
  // mkdtemp makes a 0700 directory: as root, the server must let the postgres user through (grantPassage).
  const dataDir = mkdtempSync(join(tmpdir(), 'shiliu-data-'));
  let metricsPort = 0;
  const env: NodeJS.ProcessEnv = {
    DATA_DIR: dataDir,
    // Unset: the default is a free port, even while PostgreSQL's usual 5432 is taken (held below).
    EMBEDDED_PG_PORT: undefined,
    WEB_DIST_DIR: webDir,
    DATABASE_URL: undefined,
    ADMIN_PASSWORD: undefined,
    AUTH_CAPTCHA_TEST_ANSWER: undefined,
    LOG_LEVEL: 'info',
  };
  let base = '';
  let server: ReturnType<typeof spawnTs> | null = null;
  let studentToken = '';
  let usualPort: Server | null = null;

  beforeAll(async () => {
    const port = await freePort();
    metricsPort = await freePort();
    Object.assign(env, { PORT: String(port), METRICS_PORT: String(metricsPort) });
    base = `http://127.0.0.1:${port}`;
    if (!existsSync(join(webDir, 'index.html'))) throw new Error(`${webDir} is not built: run the build first (npm test does)`);
    // Another program on 5432 (a system PostgreSQL, say) must not stop the embedded one. If one already holds it, so much the better.
    const holder = createServer();
    usualPort = await new Promise<Server | null>((resolve) => {
      holder.once('error', () => resolve(null));
      holder.listen(5432, '127.0.0.1', () => resolve(holder));
    });
  });

  afterAll(async () => {
    if (server) await stopProcess(server, 'SIGINT');
    if (usualPort) await new Promise((resolve) => usualPort!.close(resolve));
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** A cold start compiles the workspace through ts-node and initialises PostgreSQL: 86 s has been seen on two busy cores. */
  const start = async () => {
    const child = spawnTs(entry, [], env);
    await waitFor(
      'the embedded server to answer',
      async () => {
        assertRunning(child);
        return (await fetch(`${base}/api/health`)).ok;
      },
      180_000,
      500,
    );
    return child;
  };

  /** The port the last start chose for its database, as it logs it. */
  const databasePort = (child: ReturnType<typeof spawnTs>): number => {
    const ports = [...child.output().matchAll(/embedded PostgreSQL listening on 127\.0\.0\.1:(\d+)/g)].map((match) => Number(match[1]));
    expect(ports).toHaveLength(1);
    expect(ports[0]).not.toBe(5432);
    return ports[0];
  };

  it('starts from an empty data directory and answers health, pages, unknown calls, and metrics on the management port only', async () => {
    server = await start();
    const health = await (await fetch(`${base}/api/health`)).json();
    expect(health).toEqual({
      code: 200,
      message: 'success',
      data: {
        status: 'up',
        mode: 'embedded',
        services: { auth: 'up', content: 'up', social: 'up', notify: 'up', search: 'up', media: 'up' },
      },
    });
    for (const path of ['/', '/explore', '/no/such/page']) {
      const page = await fetch(`${base}${path}`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root">');
    }
    // The answers name /default-avatar.svg for a student without an avatar; the web app's note placeholder sits beside it.
    for (const path of ['/default-avatar.svg', '/placeholder.svg']) {
      const image = await fetch(`${base}${path}`);
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
      expect(await image.text()).toContain('<svg');
    }
    const unknown = await fetch(`${base}/api/unknown`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ code: 404, message: '资源不存在', data: null });
    expect(await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text()).toContain('shiliu_http_request_duration_seconds');
    expect(await (await fetch(`${base}/metrics`)).text()).not.toContain('shiliu_http_request_duration_seconds');
  }, 300_000);

  it('creates the administrator with a generated password printed once, and loads the demo data', async () => {
    const printed = /generated password (\S+) /.exec(server!.output());
    expect(printed).not.toBeNull();
    const login = await fetch(`${base}/api/auth/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: printed![1] }),
    });
    expect(login.status).toBe(200);
    const demo = (await (await fetch(`${base}/api/users/xiaoshiliu`)).json()) as { data: unknown };
    expect(demo.data).toMatchObject({ user_id: 'xiaoshiliu', nickname: '小石榴' });
    const signIn = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user_id: 'xiaoshiliu', password: 'shiliu123' }),
    });
    expect(signIn.status).toBe(200);
    studentToken = ((await signIn.json()) as { data: { tokens: { access_token: string } } }).data.tokens.access_token;
  });

  it('stops cleanly on Ctrl-C, even with a browser’s event stream open, and keeps its data across a restart', async () => {
    // A logged-in browser holds its unread stream open: the server must end it rather than wait on it.
    const ticket = await fetch(`${base}/api/notifications/stream/ticket`, { method: 'POST', headers: { authorization: `Bearer ${studentToken}` } });
    const stream = await openEventStream(`${base}/api/notifications/stream?ticket=${((await ticket.json()) as { data: { ticket: string } }).data.ticket}`);
    await stream.next();
    const database = new Client({ connectionString: `postgres://shiliu:shiliu@127.0.0.1:${databasePort(server!)}/shiliu` });
    await database.connect();
    await database.query(`CREATE TABLE public.restart_probe (note text)`);
    await database.query(`INSERT INTO public.restart_probe VALUES ('还在吗')`);
    await database.end();
    const key = readFileSync(join(dataDir, 'keys/token-public.pem'), 'utf8');

    const exited = new Promise<number | null>((resolve) => server!.once('exit', (code) => resolve(code)));
    server!.kill('SIGINT');
    await stream.ended;
    expect(await exited).toBe(0);
    expect(server!.output()).toContain('stopped cleanly');

    server = await start();
    expect(server.output()).not.toContain('first start');
    expect(server.output()).not.toContain('generated password');
    expect(server.output()).not.toContain('loading demo data');
    expect(readFileSync(join(dataDir, 'keys/token-public.pem'), 'utf8')).toBe(key);
    const again = new Client({ connectionString: `postgres://shiliu:shiliu@127.0.0.1:${databasePort(server)}/shiliu` });
    await again.connect();
    const { rows } = await again.query(`SELECT note FROM public.restart_probe`);
    await again.end();
    expect(rows).toEqual([{ note: '还在吗' }]);
  }, 300_000);
});
