import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import type { Logger } from 'pino';

const RECONNECT_MS = 1000;

export interface ChannelHandlers {
  /** A NOTIFY on the channel, with its payload ('' when it had none). */
  notice(payload: string): void;
  /** Listening (again): notices sent while it was not were lost, so whatever was learnt from them is stale. */
  up?(): void;
  /** The connection is lost: until `up`, no notice arrives. */
  down?(): void;
}

export interface ChannelSubscription {
  close(): Promise<void>;
}

/**
 * One LISTEN connection per process and database, shared by everything in the process that waits for NOTIFY: the
 * outbox relays of every schema and content's read cache (in embedded mode, all of them on one connection). A lost
 * connection is set up again every second while anyone still listens, and each subscriber hears of the loss and
 * of the return, since notices sent in between are gone.
 */
export class PgListener {
  private static readonly shared = new Map<string, PgListener>();

  /** The process's listener for this database. */
  static of(databaseUrl: string, logger: Logger): PgListener {
    let listener = PgListener.shared.get(databaseUrl);
    if (!listener) {
      listener = new PgListener(databaseUrl, logger);
      PgListener.shared.set(databaseUrl, listener);
    }
    return listener;
  }

  /** How its connection shows in pg_stat_activity. */
  readonly applicationName = `shiliu-listen-${randomUUID().slice(0, 8)}`;
  private readonly channels = new Map<string, Set<ChannelHandlers>>();
  private client: Client | null = null;
  /** The channels the current connection listens on. */
  private listened = new Set<string>();
  private connecting: Promise<void> | null = null;
  private reconnect: NodeJS.Timeout | null = null;

  private constructor(
    private readonly databaseUrl: string,
    private readonly logger: Logger,
  ) {}

  /** Whether notices are arriving now. */
  get live(): boolean {
    return this.client !== null;
  }

  /**
   * Listens on `channel` and resolves once listening, or once the first attempt failed (the listener then keeps
   * trying, and `up` comes when it succeeds).
   */
  async subscribe(channel: string, handlers: ChannelHandlers): Promise<ChannelSubscription> {
    this.channels.set(channel, (this.channels.get(channel) ?? new Set()).add(handlers));
    const subscription = { close: () => this.unsubscribe(channel, handlers) };
    if (!this.client) {
      // Opening announces `up` to every subscriber, this one included.
      await this.connect();
      await this.listenOn(channel);
      return subscription;
    }
    await this.listenOn(channel);
    if (this.client) handlers.up?.();
    return subscription;
  }

  private async listenOn(channel: string): Promise<void> {
    const client = this.client;
    if (!client || this.listened.has(channel)) return;
    this.listened.add(channel);
    await client.query(`LISTEN ${quoted(channel)}`).catch((err: unknown) => this.lost(client, err));
  }

  private async unsubscribe(channel: string, handlers: ChannelHandlers): Promise<void> {
    const set = this.channels.get(channel);
    if (!set?.delete(handlers) || set.size > 0) return;
    this.channels.delete(channel);
    if (this.channels.size > 0) {
      this.listened.delete(channel);
      await this.client?.query(`UNLISTEN ${quoted(channel)}`).catch(() => undefined);
      return;
    }
    PgListener.shared.delete(this.databaseUrl);
    if (this.reconnect) clearTimeout(this.reconnect);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private connect(): Promise<void> {
    this.connecting ??= this.open().finally(() => (this.connecting = null));
    return this.connecting;
  }

  private async open(): Promise<void> {
    const client = new Client({ connectionString: this.databaseUrl, application_name: this.applicationName });
    client.on('notification', (message) => {
      for (const handlers of this.channels.get(message.channel) ?? []) handlers.notice(message.payload ?? '');
    });
    try {
      await client.connect();
      this.listened = new Set();
      // A Map's keys are iterated live: a channel subscribed meanwhile is listened on too, before anyone hears `up`.
      for (const channel of this.channels.keys()) {
        await client.query(`LISTEN ${quoted(channel)}`);
        this.listened.add(channel);
      }
    } catch (err) {
      void client.end().catch(() => undefined);
      this.retry(err);
      return;
    }
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client, new Error('connection ended')));
    if (this.channels.size === 0) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    for (const set of this.channels.values()) for (const handlers of set) handlers.up?.();
  }

  private lost(client: Client, err: unknown): void {
    if (this.client !== client) return;
    this.client = null;
    void client.end().catch(() => undefined);
    for (const set of this.channels.values()) for (const handlers of set) handlers.down?.();
    this.retry(err);
  }

  private retry(err: unknown): void {
    if (this.channels.size === 0 || this.reconnect) return;
    this.logger.warn({ err }, 'not listening for database notices; trying again');
    this.reconnect = setTimeout(() => {
      this.reconnect = null;
      void this.connect();
    }, RECONNECT_MS);
    this.reconnect.unref();
  }
}

/** Channel names are the platform's own (schema-derived), quoted as identifiers all the same. */
function quoted(channel: string): string {
  return `"${channel.replace(/"/g, '""')}"`;
}
