// How many batches the outbox relay publishes a steady stream in, with and without its pause between rounds:
// writers commit one event a transaction while the relay drains; prints batches, events a batch and time.
// `infra/local/up && TS_NODE_PROJECT=tsconfig.base.json node -r ts-node/register/transpile-only -r tsconfig-paths/register bench/outbox-relay/run.ts [writers] [events each]`
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineEvent } from '@shiliu/contracts';
import { createServiceDataSource, type EventPublisher, migrate, Outbox, OutboxRelay, type OutboxRecord } from '@shiliu/platform';
import pino from 'pino';

const writers = Number(process.argv[2] ?? 8);
const eventsEach = Number(process.argv[3] ?? 250);
const envFile = join(__dirname, '../../infra/local/.run/test.env');
const databaseUrl =
  process.env.DATABASE_URL ?? (existsSync(envFile) ? /^DATABASE_URL=(.*)$/m.exec(readFileSync(envFile, 'utf8'))?.[1] : undefined);
if (!databaseUrl) throw new Error('DATABASE_URL is not set: run infra/local/up first');

const noted = defineEvent<{ seq: number }>({ type: 'bench.noted', version: 1, topic: 'shiliu.bench', key: (p) => String(p.seq) });

class CountingPublisher implements EventPublisher {
  readonly transport = 'counting';
  batches = 0;
  events = 0;
  async publish(records: OutboxRecord[]): Promise<void> {
    this.batches += 1;
    this.events += records.length;
  }
  ready(): boolean {
    return true;
  }
  async close(): Promise<void> {}
}

async function measure(roundGapMs: number | undefined): Promise<{ batches: number; events: number; ms: number }> {
  const schema = `bench_relay_${randomUUID().slice(0, 8)}`;
  const dataSource = createServiceDataSource({ url: databaseUrl!, schema, entities: [], migrations: [] });
  await dataSource.initialize();
  await migrate(dataSource);
  const publisher = new CountingPublisher();
  const relay = new OutboxRelay(dataSource, publisher, pino({ level: 'silent' }), databaseUrl!, 60 * 60 * 1000, roundGapMs);
  try {
    await relay.start();
    const outbox = new Outbox();
    const started = performance.now();
    await Promise.all(
      Array.from({ length: writers }, async (_, writer) => {
        for (let i = 0; i < eventsEach; i++) await dataSource.transaction((manager) => outbox.add(manager, noted, { seq: writer * eventsEach + i }));
      }),
    );
    await relay.flush();
    return { batches: publisher.batches, events: publisher.events, ms: performance.now() - started };
  } finally {
    await relay.stop();
    await dataSource.query(`DROP SCHEMA "${schema}" CASCADE`);
    await dataSource.destroy();
  }
}

async function main(): Promise<void> {
  console.log(`${writers} writers × ${eventsEach} events, one transaction an event`);
  console.log('relay            batches  events/batch  ms');
  for (const [name, gap] of [
    ['no pause', 0],
    ['default pause', undefined],
  ] as const) {
    const { batches, events, ms } = await measure(gap);
    console.log(`${name.padEnd(16)} ${String(batches).padStart(7)}  ${(events / batches).toFixed(1).padStart(12)}  ${ms.toFixed(0)}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
