import type { EventEnvelope } from '@shiliu/contracts';
import type { Logger } from 'pino';
import type { DataSource, EntityManager } from 'typeorm';
import { runInContext } from '../context/request-context';
import { deadLettered, eventRetries, eventsHandled } from '../metrics/metrics';
import { asRun } from './event-context';
import { isTransient } from './failure';

/** Why an event was parked: its handler kept failing, or the consumer could not read it at all. */
export type DeadLetterReason = 'handler-failed' | 'malformed' | 'unknown-type' | 'unsupported-version';

/** One parked message, with what a person needs to understand it and what replay needs to send it again. */
export interface DeadLetter {
  /** The consuming service; its Kafka consumer group is `shiliu-<consumer>`. */
  consumer: string;
  reason: DeadLetterReason;
  /** The error or the explanation, for people. */
  error: string;
  /** Absent when the message was not a readable envelope; `raw` then holds what arrived. */
  envelope?: EventEnvelope;
  raw?: string;
  topic?: string;
  key?: string | null;
}

/** Where a message goes when it cannot be handled. */
export interface DeadLetterSink {
  park(letter: DeadLetter): Promise<void>;
}

export interface RetryPolicy {
  /** Tries for a failure that repeats the same way (a bug, bad data) before the event is parked. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** How long a transient failure (database or broker down, deadlock) is retried before the event is parked anyway. */
  transientLimitMs: number;
}

const HEARTBEAT_EVERY_MS = 1000;

export const defaultRetryPolicy: RetryPolicy = { attempts: 5, baseDelayMs: 200, maxDelayMs: 10_000, transientLimitMs: 15 * 60_000 };

/** Where a message came from, and what to do while waiting between tries (Kafka's consumer heartbeats to keep its partitions). */
export interface Delivery {
  topic?: string;
  key?: string | null;
  whileWaiting?: () => Promise<void>;
}

export type DispatchOutcome = 'handled' | 'duplicate' | 'dead-lettered';

/** One event ready for its handler, as `dispatchAll` takes them. */
export interface Dispatch {
  envelope: EventEnvelope;
  handle: (manager: EntityManager) => Promise<void>;
  delivery?: Delivery;
}

/**
 * Runs a service's handler for one event exactly once in effect: the event id goes into the inbox in the
 * same transaction as the handler's writes, so a redelivered event finds it there and changes nothing.
 * A transient failure is retried with exponential backoff for as long as an outage may last, holding back the
 * events behind it so their order is kept; a permanent one is parked after a few tries. Nothing is dropped silently.
 */
export class EventDispatcher {
  constructor(
    readonly service: string,
    private readonly dataSource: DataSource,
    private readonly deadLetters: DeadLetterSink,
    private readonly logger: Logger,
    private readonly retry: RetryPolicy = defaultRetryPolicy,
  ) {}

  async dispatch(envelope: EventEnvelope, handle: (manager: EntityManager) => Promise<void>, delivery: Delivery = {}): Promise<DispatchOutcome> {
    return runInContext(contextOf(envelope), async () => {
      const started = Date.now();
      let permanentFailures = 0;
      for (let attempt = 1; ; attempt++) {
        try {
          const outcome = await this.handleOnce(envelope, handle);
          eventsHandled.inc({ service: this.service, type: envelope.type, outcome });
          return outcome;
        } catch (error) {
          const transient = isTransient(error);
          if (!transient) permanentFailures++;
          const giveUp = transient ? Date.now() - started >= this.retry.transientLimitMs : permanentFailures >= this.retry.attempts;
          this.logger.warn({ err: error, eventId: envelope.id, type: envelope.type, attempt, transient }, 'event handler failed');
          if (giveUp) {
            await this.park({ consumer: this.service, reason: 'handler-failed', error: describe(error), envelope, topic: delivery.topic, key: delivery.key }, delivery);
            eventsHandled.inc({ service: this.service, type: envelope.type, outcome: 'dead-lettered' });
            return 'dead-lettered';
          }
          eventRetries.inc({ service: this.service, type: envelope.type, failure: transient ? 'transient' : 'permanent' });
          await this.pause(attempt, delivery);
        }
      }
    });
  }

  /**
   * Handles events in order, all in one transaction: a transaction's fixed cost (its round trips, the commit's
   * flush to disk) is paid once for a run of events instead of once each, which is what lets a consumer keep up
   * with a burst. Every event still has its inbox row committed with its effects. When any of them fails, the
   * transaction takes the others' effects back with it, and each is then dispatched on its own, with its own
   * retries and dead letter, so one bad event neither holds back nor parks its neighbours.
   */
  async dispatchAll(dispatches: Dispatch[]): Promise<DispatchOutcome[]> {
    if (dispatches.length === 1) {
      const [{ envelope, handle, delivery }] = dispatches;
      return [await this.dispatch(envelope, handle, delivery)];
    }
    let outcomes: DispatchOutcome[];
    try {
      outcomes = await this.dataSource.transaction((manager) => asRun(manager, async () => {
        // The whole run's inbox rows in one statement; only the events it inserted (once each) are new.
        const inserted: { event_id: string }[] = await manager.query(
          `INSERT INTO "inbox" ("event_id", "type") SELECT * FROM unnest($1::uuid[], $2::text[]) ON CONFLICT ("event_id") DO NOTHING RETURNING "event_id"`,
          [dispatches.map(({ envelope }) => envelope.id), dispatches.map(({ envelope }) => envelope.type)],
        );
        const fresh = new Set(inserted.map((row) => row.event_id));
        const done: DispatchOutcome[] = [];
        for (const { envelope, handle } of dispatches) {
          if (!fresh.delete(envelope.id.toLowerCase())) {
            done.push('duplicate');
            continue;
          }
          await runInContext(contextOf(envelope), () => handle(manager));
          done.push('handled');
        }
        return done;
      }));
    } catch (error) {
      this.logger.warn({ err: error, events: dispatches.length }, 'an event of a run failed; handling the run one event at a time');
      const one: DispatchOutcome[] = [];
      for (const { envelope, handle, delivery } of dispatches) one.push(await this.dispatch(envelope, handle, delivery));
      return one;
    }
    dispatches.forEach(({ envelope }, i) => eventsHandled.inc({ service: this.service, type: envelope.type, outcome: outcomes[i] }));
    return outcomes;
  }

  /** Parks a message, retrying while the dead-letter store itself is unreachable: it is never dropped. */
  async park(letter: DeadLetter, delivery: Delivery = {}): Promise<void> {
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      try {
        await this.deadLetters.park(letter);
        deadLettered.inc({ service: this.service, reason: letter.reason });
        this.logger.error({ eventId: letter.envelope?.id, type: letter.envelope?.type, topic: letter.topic, reason: letter.reason, error: letter.error }, 'message parked as dead letter');
        return;
      } catch (error) {
        if (!isTransient(error) || Date.now() - started >= this.retry.transientLimitMs) throw error;
        this.logger.warn({ err: error, attempt }, 'parking a dead letter failed; retrying');
        await this.pause(attempt, delivery);
      }
    }
  }

  /** Waits before the next try, a second at a time, so that Kafka's consumer heartbeats meanwhile and keeps its partitions. */
  private async pause(attempt: number, delivery: Delivery): Promise<void> {
    const until = Date.now() + Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** Math.min(attempt - 1, 20));
    for (let left = until - Date.now(); left > 0; left = until - Date.now()) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(left, HEARTBEAT_EVERY_MS)));
      await delivery.whileWaiting?.();
    }
  }

  private handleOnce(envelope: EventEnvelope, handle: (manager: EntityManager) => Promise<void>): Promise<DispatchOutcome> {
    return this.dataSource.transaction((manager) => asRun(manager, () => this.handleIn(manager, envelope, handle)));
  }

  /** The event's inbox row and its handler's writes, in the caller's transaction; a redelivered event finds its row and changes nothing. */
  private async handleIn(manager: EntityManager, envelope: EventEnvelope, handle: (manager: EntityManager) => Promise<void>): Promise<DispatchOutcome> {
    const inserted: unknown[] = await manager.query(
      `INSERT INTO "inbox" ("event_id", "type") VALUES ($1, $2) ON CONFLICT ("event_id") DO NOTHING RETURNING "event_id"`,
      [envelope.id, envelope.type],
    );
    if (inserted.length === 0) return 'duplicate';
    await handle(manager);
    return 'handled';
  }
}

/** What a handler's own outbox writes carry: the event that caused them, and the correlation it belongs to. */
function contextOf(envelope: EventEnvelope) {
  return { requestId: envelope.correlationId, correlationId: envelope.correlationId, causationId: envelope.id, actor: envelope.actor };
}

/**
 * Parks messages in the consuming service's own `dead_letters` table: the only store in embedded mode, and in
 * both modes the one that the replay command sends parked events again from.
 */
export class TableDeadLetterSink implements DeadLetterSink {
  constructor(private readonly dataSource: DataSource) {}

  async park(letter: DeadLetter): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO "dead_letters" ("event_id", "type", "envelope", "error", "consumer", "reason", "topic", "key", "raw")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        letter.envelope?.id ?? null,
        letter.envelope?.type ?? null,
        letter.envelope ? JSON.stringify(letter.envelope) : null,
        letter.error,
        letter.consumer,
        letter.reason,
        letter.topic ?? null,
        letter.key ?? null,
        letter.raw ?? null,
      ],
    );
  }
}

export function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
