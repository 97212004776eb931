import type { EventEnvelope } from '@shiliu/contracts';

/** One outbox row on its way out. */
export interface OutboxRecord {
  topic: string;
  key: string;
  envelope: EventEnvelope;
}

/** Where the relay sends what the outbox holds: Kafka in distributed mode, the in-process bus in embedded mode. */
export interface EventPublisher {
  readonly transport: string;
  /** Resolves only when every record is durably accepted; rejects otherwise (the relay then retries). */
  publish(records: OutboxRecord[]): Promise<void>;
  /** Whether the last attempt to reach the transport succeeded, for readiness. */
  ready(): boolean;
  close(): Promise<void>;
}
