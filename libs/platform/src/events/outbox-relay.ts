import { Client } from 'pg';
import type { DataSource, EntitySubscriberInterface, TransactionCommitEvent } from 'typeorm';
import type { Logger } from 'pino';
import { type ChannelSubscription, PgListener } from '../database/pg-listener';
import { type OutboxBacklog, outboxBacklogSources, outboxFailed, outboxPublished } from '../metrics/metrics';
import { describe } from './event-dispatcher';
import type { EventPublisher, OutboxRecord } from './event-publisher';
import { isTransient } from './failure';
import { OUTBOX_WRITTEN, relayOf } from './outbox';

const BATCH_SIZE = 200;
const FALLBACK_POLL_MS = 2000;
const RETRY_DELAY_MS = 1000;
/**
 * The pause after a batch that was not full, before the relay reads the next: events arriving about as fast as it
 * publishes them would otherwise cost a query and a broker round trip each (bench/outbox-relay shows the difference).
 */
const ROUND_GAP_MS = 10;
const PURGE_EVERY_MS = 60 * 60 * 1000;
/** Published events are kept a week for inspection; inbox ids twice Kafka's default retention, past any redelivery. */
const KEEP_PUBLISHED = '7 days';
const KEEP_HANDLED = '14 days';

interface OutboxRow extends OutboxRecord {
  id: string;
}

/**
 * Publishes what a service's outbox holds, in commit order, and marks it sent. Woken the moment a transaction of
 * this process that wrote events commits, by NOTIFY on a commit of any other process (another replica, the replay
 * command), and by a slow poll as a fallback.
 *
 * No database transaction is open while it publishes: it reads a batch, publishes it, then marks it sent in the
 * statement that reads the next, on a connection of its own (outside the pool), so a relay never queues for a
 * connection behind the requests that write the events. A session advisory lock on that connection lets only one replica relay a
 * schema at a time, which keeps the events of one aggregate in order. A relay killed
 * between publishing and marking publishes the batch again on restart: delivery is at least once, and
 * consumers' inboxes make it exactly once in effect. A record the transport refuses for good (too large, a bad
 * topic) is set aside with its error instead of holding back everything behind it.
 */
export class OutboxRelay implements EntitySubscriberInterface {
  private notices: ChannelSubscription | null = null;
  private lockSession: Client | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** Drains run one after another: the session lock is re-entrant, so two at once in one process would both hold it. */
  private chain: Promise<void> = Promise.resolve();
  private queued = false;
  /** A drain holds the lock; a wake meanwhile makes it go round again instead of queueing a drain of its own. */
  private draining = false;
  private again = false;
  private stopped = false;
  private stopping: Promise<void> | null = null;
  private lastPurge = 0;
  private readonly backlogSource = () => this.backlog();

  constructor(
    private readonly dataSource: DataSource,
    private readonly publisher: EventPublisher,
    private readonly logger: Logger,
    private readonly databaseUrl: string,
    private readonly fallbackPollMs = FALLBACK_POLL_MS,
    private readonly roundGapMs = ROUND_GAP_MS,
  ) {}

  private get schema(): string {
    return (this.dataSource.options as { schema: string }).schema;
  }

  private get lockKey(): string {
    return `outbox:${this.schema}`;
  }

  async start(): Promise<void> {
    outboxBacklogSources.add(this.backlogSource);
    this.dataSource.subscribers.push(this);
    relayOf(this.dataSource, () => this.wake());
    // Commits of other processes (another replica, the replay command) announce themselves on the channel.
    this.notices = await PgListener.of(this.databaseUrl, this.logger).subscribe(`outbox_${this.schema}`, { notice: () => this.wake() });
    this.schedule(0);
  }

  /** A transaction of this process that wrote events has committed: publish them now rather than when its NOTIFY comes round. */
  afterTransactionCommit(event: TransactionCommitEvent): void {
    const data = event.queryRunner.data as Record<string, unknown>;
    // A savepoint's release is not the commit; the flag stays for the outer transaction's.
    if (event.queryRunner.isTransactionActive || !data[OUTBOX_WRITTEN]) return;
    delete data[OUTBOX_WRITTEN];
    this.wake();
  }

  /**
   * Runs a drain soon: now, or, while one holds the lock, as that drain's next round, which spares a busy relay
   * giving the lock up and taking it again between every two commits.
   */
  wake(): void {
    if (this.stopped) return;
    if (this.draining) {
      this.again = true;
      return;
    }
    if (this.queued) return;
    this.queued = true;
    this.enqueue(async () => {
      this.queued = false;
      await this.drainAll(false);
    }).catch((err: unknown) => {
      this.logger.error({ err, schema: this.schema }, 'outbox relay failed; will retry');
      this.schedule(RETRY_DELAY_MS);
    });
  }

  /**
   * Publishes everything committed so far and resolves when it is out, waiting for the lock if another
   * replica (or process) holds it, so seeding and shutdown never leave events behind.
   */
  flush(): Promise<void> {
    return this.enqueue(() => this.drainAll(true));
  }

  /** Stops waking, finishes the drain in progress and publishes whatever is left, so a clean shutdown leaves nothing behind. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      this.stopped = true;
      const index = this.dataSource.subscribers.indexOf(this);
      if (index >= 0) this.dataSource.subscribers.splice(index, 1);
      relayOf(this.dataSource, null);
      if (this.timer) clearTimeout(this.timer);
      await this.flush().catch((err: unknown) => this.logger.error({ err }, 'final outbox drain failed'));
      outboxBacklogSources.delete(this.backlogSource);
      await this.notices?.close();
      await this.lockSession?.end().catch(() => undefined);
    })();
    return this.stopping;
  }

  private enqueue(drain: () => Promise<void>): Promise<void> {
    const run = this.chain.then(drain);
    this.chain = run.catch(() => undefined);
    return run;
  }

  private schedule(delayMs: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.wake();
      if (!this.stopped) this.schedule(this.fallbackPollMs);
    }, delayMs);
    this.timer.unref();
  }

  private async session(): Promise<Client> {
    if (this.lockSession) return this.lockSession;
    const session = new Client({
      connectionString: this.databaseUrl,
      application_name: `shiliu-${this.schema}-relay-lock`,
      options: `-c search_path=${this.schema},public`,
    });
    session.on('error', (err) => {
      // The server released the lock with the connection; the next drain takes it again.
      this.logger.warn({ err }, 'outbox lock connection lost');
      if (this.lockSession === session) this.lockSession = null;
    });
    await session.connect();
    this.lockSession = session;
    return session;
  }

  private async drainAll(waitForLock: boolean): Promise<void> {
    const session = await this.session();
    if (waitForLock) {
      await session.query(`SELECT pg_advisory_lock(hashtext($1))`, [this.lockKey]);
    } else {
      const { rows } = await session.query<{ locked: boolean }>(`SELECT pg_try_advisory_lock(hashtext($1)) AS locked`, [this.lockKey]);
      if (!rows[0].locked) return;
    }
    this.draining = true;
    try {
      do {
        this.again = false;
        await this.drain(session);
      } while (this.again);
    } finally {
      this.draining = false;
      await session.query(`SELECT pg_advisory_unlock(hashtext($1))`, [this.lockKey]).catch(() => undefined);
    }
    if (Date.now() - this.lastPurge > PURGE_EVERY_MS) await this.purge();
  }

  /** Keeps the outbox and inbox from growing without end. */
  async purge(): Promise<void> {
    this.lastPurge = Date.now();
    await this.dataSource.query(`DELETE FROM "outbox" WHERE "published_at" < now() - $1::interval`, [KEEP_PUBLISHED]);
    await this.dataSource.query(`DELETE FROM "inbox" WHERE "handled_at" < now() - $1::interval`, [KEEP_HANDLED]);
  }

  /**
   * Publishes batches until none is left. Marking a batch sent and reading the next are one statement, so a relay
   * that keeps finding events pays a round trip to PostgreSQL and one to the transport per batch; after a batch
   * that was not full it waits `roundGapMs` first, so that under a steady stream each round carries what arrived
   * meanwhile. An event after a quiet spell still goes out at once: only the rounds after it wait.
   */
  private async drain(session: Client): Promise<void> {
    let sent: OutboxRow[] = [];
    for (;;) {
      const rows = await this.markSentAndReadNext(session, sent);
      if (rows.length === 0) return;
      sent = await this.publish(session, rows);
      if (rows.length < BATCH_SIZE && this.roundGapMs > 0 && !this.stopped) await new Promise((resolve) => setTimeout(resolve, this.roundGapMs));
    }
  }

  /**
   * Marks `sent` published and reads the next batch past it (the read sees the table as it was before the mark).
   * With nothing to mark it only reads, taking no lock that would wait on anything but a writer of the whole table.
   */
  private async markSentAndReadNext(session: Client, sent: OutboxRow[]): Promise<OutboxRow[]> {
    const next = `SELECT "id", "topic", "key", "envelope" FROM "outbox" WHERE "published_at" IS NULL AND "failed_at" IS NULL`;
    if (sent.length === 0) return (await session.query<OutboxRow>(`${next} ORDER BY "seq" LIMIT $1`, [BATCH_SIZE])).rows;
    const { rows } = await session.query<OutboxRow>(
      `WITH "sent" AS (UPDATE "outbox" SET "published_at" = now() WHERE "id" = ANY($2::uuid[])) ${next} AND "id" <> ALL($2::uuid[]) ORDER BY "seq" LIMIT $1`,
      [BATCH_SIZE, sent.map((row) => row.id)],
    );
    outboxPublished.inc({ service: this.schema, transport: this.publisher.transport }, sent.length);
    return rows;
  }

  /**
   * Publishes a batch at once; when the transport refuses it for good, one record at a time, setting aside each
   * record it refuses. A transient failure (broker unreachable) stops the drain: the rest is tried again later.
   */
  private async publish(session: Client, rows: OutboxRow[]): Promise<OutboxRow[]> {
    try {
      await this.publisher.publish(rows.map(toRecord));
      return rows;
    } catch (error) {
      if (isTransient(error)) throw error;
    }
    const sent: OutboxRow[] = [];
    for (const row of rows) {
      try {
        await this.publisher.publish([toRecord(row)]);
        sent.push(row);
      } catch (error) {
        if (isTransient(error)) {
          await this.markSent(session, sent);
          throw error;
        }
        await this.setAside(session, row, error);
      }
    }
    return sent;
  }

  private async markSent(session: Client, rows: OutboxRow[]): Promise<void> {
    if (rows.length === 0) return;
    await session.query(`UPDATE "outbox" SET "published_at" = now() WHERE "id" = ANY($1::uuid[])`, [rows.map((row) => row.id)]);
    outboxPublished.inc({ service: this.schema, transport: this.publisher.transport }, rows.length);
  }

  private async setAside(session: Client, row: OutboxRow, error: unknown): Promise<void> {
    await session.query(`UPDATE "outbox" SET "failed_at" = now(), "error" = $2 WHERE "id" = $1`, [row.id, describe(error)]);
    outboxFailed.inc({ service: this.schema, transport: this.publisher.transport });
    this.logger.error({ err: error, eventId: row.id, topic: row.topic }, 'outbox record refused by the transport; set aside until replayed');
  }

  private async backlog(): Promise<OutboxBacklog> {
    const [row] = await this.dataSource.query(
      `SELECT count(*)::int AS "unsent", COALESCE(extract(epoch FROM now() - min("created_at")), 0)::float AS "oldestSeconds"
       FROM "outbox" WHERE "published_at" IS NULL AND "failed_at" IS NULL`,
    );
    return { service: this.schema, ...(row as { unsent: number; oldestSeconds: number }) };
  }
}

function toRecord({ topic, key, envelope }: OutboxRow): OutboxRecord {
  return { topic, key, envelope };
}
