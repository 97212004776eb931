import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './infra';

const run = promisify(execFile);

/**
 * A PostgreSQL cluster of a test's own, on a free loopback port, for tests that take the database away (stop it,
 * restart it) while the shared one keeps serving every other test. It uses the Debian binaries that
 * infra/local/up installs; as root it runs as the infrastructure user, since PostgreSQL refuses to run as root.
 */
export class PrivatePostgres {
  private constructor(private readonly dataDir: string, readonly port: number, private readonly runAs: string | null) {}

  static async start(): Promise<PrivatePostgres> {
    const runAs = process.getuid?.() === 0 ? (process.env.SHILIU_INFRA_USER ?? 'shiliu-infra') : null;
    const dataDir = mkdtempSync(join(tmpdir(), 'shiliu-pg-'));
    if (runAs) {
      const { stdout } = await run('id', ['-u', runAs]);
      const { stdout: group } = await run('id', ['-g', runAs]);
      chownSync(dataDir, Number(stdout.trim()), Number(group.trim()));
    }
    const postgres = new PrivatePostgres(dataDir, await freePort(), runAs);
    await postgres.command('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']);
    await postgres.startServer();
    return postgres;
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  /** Starts the server and resolves once it accepts connections (pg_ctl -w waits for that). */
  async startServer(): Promise<void> {
    const options = `-p ${this.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories='${this.dataDir}' -c fsync=off`;
    await this.command('pg_ctl', ['-D', this.dataDir, '-o', options, '-l', join(this.dataDir, 'server.log'), '-w', 'start']);
  }

  /** Stops the server the way a failover does: every connection is terminated at once. */
  async stopServer(): Promise<void> {
    await this.command('pg_ctl', ['-D', this.dataDir, '-m', 'fast', '-w', 'stop']);
  }

  async destroy(): Promise<void> {
    if (existsSync(join(this.dataDir, 'postmaster.pid'))) await this.stopServer().catch(() => undefined);
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  private async command(program: string, args: string[]): Promise<void> {
    const path = join(postgresBin(), program);
    const [file, fullArgs] = this.runAs
      ? ['setpriv', [`--reuid=${this.runAs}`, `--regid=${this.runAs}`, '--init-groups', path, ...args]]
      : [path, args];
    await run(file, fullArgs, { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' } });
  }
}

/** Debian's PostgreSQL 15 if present, else the newest installed. */
function postgresBin(): string {
  const root = '/usr/lib/postgresql';
  if (existsSync(join(root, '15/bin/postgres'))) return join(root, '15/bin');
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin/postgres'))) : [];
  if (versions.length === 0) throw new Error('PostgreSQL binaries are missing under /usr/lib/postgresql: run infra/local/up (npm test does this)');
  return join(root, versions.sort((a, b) => Number(a) - Number(b)).at(-1)!, 'bin');
}

