import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import pino from 'pino';
import { type ChannelHandlers, PgListener } from '../src';
import { requireEnv, waitFor } from '../src/testing';

/** What one subscriber heard, and whether the listener was live as it heard each loss (`live` read then). */
function recorder(live: () => boolean) {
  const heard = { notices: [] as string[], ups: 0, downs: 0, liveAtDown: [] as boolean[] };
  const handlers: ChannelHandlers = {
    notice: (payload) => heard.notices.push(payload),
    up: () => (heard.ups += 1),
    down: () => {
      heard.downs += 1;
      heard.liveAtDown.push(live());
    },
  };
  return { heard, handlers };
}

describe('one LISTEN connection per process and database', () => {
  const url = requireEnv('DATABASE_URL');
  const channels = [`fx_listen_a_${randomUUID().slice(0, 8)}`, `fx_listen_b_${randomUUID().slice(0, 8)}`];
  let admin: Client;

  beforeAll(async () => {
    admin = new Client({ connectionString: url });
    await admin.connect();
  });

  afterAll(async () => {
    await admin?.end();
  });

  const connections = async (name: string) =>
    (await admin.query<{ open: number }>(`SELECT count(*)::int AS open FROM pg_stat_activity WHERE application_name = $1`, [name])).rows[0].open;

  it('serves every channel on one connection, tells its subscribers of a loss and of the return, and closes with the last', async () => {
    const listener = PgListener.of(url, pino({ level: 'silent' }));
    expect(PgListener.of(url, pino({ level: 'silent' }))).toBe(listener);
    const a = recorder(() => listener.live);
    const b = recorder(() => listener.live);
    const first = await listener.subscribe(channels[0], a.handlers);
    const second = await listener.subscribe(channels[1], b.handlers);
    expect([a.heard.ups, b.heard.ups]).toEqual([1, 1]);
    expect(await connections(listener.applicationName)).toBe(1);

    await admin.query(`SELECT pg_notify($1, 'p1'), pg_notify($2, '')`, channels);
    await waitFor('both notices', async () => a.heard.notices.length === 1 && b.heard.notices.length === 1);
    expect([a.heard.notices, b.heard.notices]).toEqual([['p1'], ['']]);

    await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1`, [listener.applicationName]);
    await waitFor('the loss heard by both', async () => a.heard.downs === 1 && b.heard.downs === 1);
    // Read as the loss was heard: by now the listener may be back already (it tries again after a second).
    expect([a.heard.liveAtDown, b.heard.liveAtDown]).toEqual([[false], [false]]);
    await waitFor('the return heard by both', async () => a.heard.ups === 2 && b.heard.ups === 2, 10_000);
    expect(listener.live).toBe(true);
    await admin.query(`SELECT pg_notify($1, 'p2')`, [channels[0]]);
    await waitFor('the notice after the return', async () => a.heard.notices.length === 2);
    expect(a.heard.notices).toEqual(['p1', 'p2']);

    // The first channel's subscriber leaves: its notices stop, the connection stays for the second.
    await first.close();
    await admin.query(`SELECT pg_notify($1, 'p3'), pg_notify($2, 'q3')`, channels);
    await waitFor("the second channel's notice", async () => b.heard.notices.length === 2);
    expect(a.heard.notices).toEqual(['p1', 'p2']);
    expect(await connections(listener.applicationName)).toBe(1);

    await second.close();
    await waitFor('the connection closed', async () => (await connections(listener.applicationName)) === 0);
    expect(PgListener.of(url, pino({ level: 'silent' }))).not.toBe(listener);
  });
});
