import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import type { Logger } from 'pino';
import { outboxPublished } from '../metrics/metrics';
import type { EventPublisher, OutboxRecord } from './event-publisher';

const BATCH_SIZE = 200;
const FALLBACK_POLL_MS = 2000;
const RETRY_DELAY_MS = 1000;
const PURGE_EVERY_MS = 60 * 60 * 1000;
/** Published events are kept a week for inspection; inbox ids twice Kafka's default retention, past any redelivery. */
const KEEP_PUBLISHED = '7 days';
const KEEP_HANDLED = '14 days';

/**
 * Publishes what a service's outbox holds, in commit order, and marks it sent.
 * Woken by NOTIFY on commit, with a slow poll as a fallback. An advisory lock lets only one replica
 * relay a schema at a time, which keeps events of one aggregate in order. If publishing fails the rows
 * stay unpublished and are tried again: delivery is at least once, and consumers' inboxes make it exactly once in effect.
 */
export class OutboxRelay {
  private listener: Client | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private lastPurge = 0;

  constructor(
    private readonly dataSource: DataSource,
    private readonly publisher: EventPublisher,
    private readonly logger: Logger,
    private readonly databaseUrl: string,
  ) {}

  private get schema(): string {
    return (this.dataSource.options as { schema: string }).schema;
  }

  async start(): Promise<void> {
    this.listener = new Client({ connectionString: this.databaseUrl, application_name: `shiliu-${this.schema}-relay` });
    this.listener.on('notification', () => this.wake());
    this.listener.on('error', (err) => this.logger.warn({ err }, 'outbox listener connection failed; polling only'));
    await this.listener.connect();
    await this.listener.query(`LISTEN "outbox_${this.schema}"`);
    this.schedule(0);
  }

  /** Runs a drain now, or right after the one in progress. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drainAll()
      .catch((err: unknown) => {
        this.logger.error({ err, schema: this.schema }, 'outbox relay failed; will retry');
        this.schedule(RETRY_DELAY_MS);
      })
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Publishes everything committed so far and resolves when it is out. */
  async flush(): Promise<void> {
    await this.running;
    await this.drainAll();
  }

  /** Stops waking, finishes the drain in progress and publishes whatever is left, so a clean shutdown leaves nothing behind. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
    await this.drainAll().catch((err: unknown) => this.logger.error({ err }, 'final outbox drain failed'));
    await this.listener?.end().catch(() => undefined);
  }

  private schedule(delayMs: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.wake();
      if (!this.stopped) this.schedule(FALLBACK_POLL_MS);
    }, delayMs);
    this.timer.unref();
  }

  private async drainAll(): Promise<void> {
    while (await this.drainBatch()) {
      /* keep going while full batches come back */
    }
    if (Date.now() - this.lastPurge > PURGE_EVERY_MS) await this.purge();
  }

  /** Keeps the outbox and inbox from growing without end. */
  async purge(): Promise<void> {
    this.lastPurge = Date.now();
    await this.dataSource.query(`DELETE FROM "outbox" WHERE "published_at" < now() - $1::interval`, [KEEP_PUBLISHED]);
    await this.dataSource.query(`DELETE FROM "inbox" WHERE "handled_at" < now() - $1::interval`, [KEEP_HANDLED]);
  }

  /** Publishes one batch; answers whether there may be more. */
  private async drainBatch(): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const [{ locked }] = await manager.query(`SELECT pg_try_advisory_xact_lock(hashtext($1)) AS locked`, [`outbox:${this.schema}`]);
      if (!locked) return false;
      const rows: { id: string; topic: string; key: string; envelope: OutboxRecord['envelope'] }[] = await manager.query(
        `SELECT "id", "topic", "key", "envelope" FROM "outbox" WHERE "published_at" IS NULL ORDER BY "seq" LIMIT $1`,
        [BATCH_SIZE],
      );
      if (rows.length === 0) return false;
      await this.publisher.publish(rows.map(({ topic, key, envelope }) => ({ topic, key, envelope })));
      await manager.query(`UPDATE "outbox" SET "published_at" = now() WHERE "id" = ANY($1::uuid[])`, [rows.map((r) => r.id)]);
      outboxPublished.inc({ service: this.schema, transport: this.publisher.transport }, rows.length);
      return rows.length === BATCH_SIZE;
    });
  }
}
