import type { EventEnvelope } from '@shiliu/contracts';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { type Delivery, EventDispatcher, TableDeadLetterSink } from './event-dispatcher';
import type { EventPublisher, OutboxRecord } from './event-publisher';
import { EventServer } from './event-server';

type Delivered = { envelope: EventEnvelope; delivery: Omit<Delivery, 'whileWaiting'> };
type Subscriber = (events: Delivered[]) => Promise<void>;

/**
 * The embedded mode's stand-in for Kafka: outbox relays hand their records to every service's event server, a
 * relay's batch at once, so that a consumer takes what arrived together in runs (one transaction each), as from Kafka.
 */
export class InProcessEventBus {
  private readonly subscribers: Subscriber[] = [];

  subscribe(subscriber: Subscriber): void {
    this.subscribers.push(subscriber);
  }

  async deliver(envelope: EventEnvelope, delivery: Omit<Delivery, 'whileWaiting'> = {}): Promise<void> {
    await this.deliverAll([{ envelope, delivery }]);
  }

  async deliverAll(events: Delivered[]): Promise<void> {
    for (const subscriber of this.subscribers) await subscriber(events);
  }
}

/**
 * The relay hands records over after the producer's transaction has committed, and marks them published only
 * after every in-process consumer has handled or parked them, so a crash in between redelivers on restart, as with Kafka.
 */
export class InProcessEventPublisher implements EventPublisher {
  readonly transport = 'in-process';

  constructor(private readonly bus: InProcessEventBus) {}

  async publish(records: OutboxRecord[]): Promise<void> {
    await this.bus.deliverAll(records.map((record) => ({ envelope: record.envelope, delivery: { topic: record.topic, key: record.key } })));
  }

  ready(): boolean {
    return true;
  }

  async close(): Promise<void> {}
}

export class InProcessEventServer extends EventServer {
  constructor(private readonly bus: InProcessEventBus, service: string, dataSource: DataSource, logger: Logger) {
    super(new EventDispatcher(service, dataSource, new TableDeadLetterSink(dataSource), logger));
  }

  listen(callback: () => void): void {
    this.subscribedTopics();
    this.bus.subscribe((events) => this.handleEnvelopes(events));
    callback();
  }

  ready(): boolean {
    return true;
  }

  close(): void {}
}
