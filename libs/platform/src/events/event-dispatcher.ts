import type { EventEnvelope } from '@shiliu/contracts';
import type { Logger } from 'pino';
import type { DataSource, EntityManager } from 'typeorm';
import { runInContext } from '../context/request-context';
import { eventsHandled } from '../metrics/metrics';

/** Where an event goes when its handler still fails after every retry. */
export interface DeadLetterSink {
  /** `topic` is where the event came from, when it came through a topic. */
  park(envelope: EventEnvelope, error: unknown, topic?: string): Promise<void>;
}

export interface RetryPolicy {
  attempts: number;
  baseDelayMs: number;
}

export type DispatchOutcome = 'handled' | 'duplicate' | 'dead-lettered';

/**
 * Runs a service's handler for one event exactly once in effect: the event id goes into the inbox in the
 * same transaction as the handler's writes, so a redelivered event finds it there and changes nothing.
 * Failures are retried with exponential backoff, then parked as dead letters; nothing is dropped silently.
 */
export class EventDispatcher {
  constructor(
    private readonly service: string,
    private readonly dataSource: DataSource,
    private readonly deadLetters: DeadLetterSink,
    private readonly logger: Logger,
    private readonly retry: RetryPolicy = { attempts: 5, baseDelayMs: 200 },
  ) {}

  async dispatch(envelope: EventEnvelope, handle: (manager: EntityManager) => Promise<void>, topic?: string): Promise<DispatchOutcome> {
    const context = { requestId: envelope.correlationId, correlationId: envelope.correlationId, causationId: envelope.id, actor: envelope.actor };
    return runInContext(context, async () => {
      let lastError: unknown;
      for (let attempt = 1; attempt <= this.retry.attempts; attempt++) {
        try {
          const outcome = await this.handleOnce(envelope, handle);
          eventsHandled.inc({ service: this.service, type: envelope.type, outcome });
          return outcome;
        } catch (error) {
          lastError = error;
          this.logger.warn({ err: error, eventId: envelope.id, type: envelope.type, attempt }, 'event handler failed');
          if (attempt < this.retry.attempts) await delay(this.retry.baseDelayMs * 2 ** (attempt - 1));
        }
      }
      await this.deadLetters.park(envelope, lastError, topic);
      this.logger.error({ err: lastError, eventId: envelope.id, type: envelope.type }, 'event parked as dead letter');
      eventsHandled.inc({ service: this.service, type: envelope.type, outcome: 'dead-lettered' });
      return 'dead-lettered';
    });
  }

  private handleOnce(envelope: EventEnvelope, handle: (manager: EntityManager) => Promise<void>): Promise<DispatchOutcome> {
    return this.dataSource.transaction(async (manager) => {
      const inserted: unknown[] = await manager.query(
        `INSERT INTO "inbox" ("event_id", "type") VALUES ($1, $2) ON CONFLICT ("event_id") DO NOTHING RETURNING "event_id"`,
        [envelope.id, envelope.type],
      );
      if (inserted.length === 0) return 'duplicate';
      await handle(manager);
      return 'handled';
    });
  }
}

/** Parks dead letters in the service's own `dead_letters` table (embedded mode, where there is no Kafka). */
export class TableDeadLetterSink implements DeadLetterSink {
  constructor(private readonly dataSource: DataSource) {}

  async park(envelope: EventEnvelope, error: unknown): Promise<void> {
    await this.dataSource.query(`INSERT INTO "dead_letters" ("event_id", "type", "envelope", "error") VALUES ($1, $2, $3, $4)`, [
      envelope.id,
      envelope.type,
      JSON.stringify(envelope),
      describe(error),
    ]);
  }
}

export function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
