import { type EventEnvelope, topicOfEventType } from '@shiliu/contracts';
import { type Admin, Kafka, logLevel, Partitioners, type Producer } from 'kafkajs';
import type { Logger } from 'pino';
import { type DeadLetterSink, describe } from './event-dispatcher';
import type { EventPublisher, OutboxRecord } from './event-publisher';

export const TOPIC_PARTITIONS = 3;

export function createKafka(brokers: string[], clientId: string, logger: Logger): Kafka {
  return new Kafka({
    clientId,
    brokers,
    retry: { initialRetryTime: 300, retries: 8 },
    logLevel: logLevel.WARN,
    logCreator: () => ({ namespace, level, log }) => {
      const { message, ...extra } = log;
      const write = level <= logLevel.ERROR ? logger.error.bind(logger) : logger.warn.bind(logger);
      write({ namespace, ...extra }, message);
    },
  });
}

/** Exactly-once per partition on the broker side, keyed partitioning compatible with Java clients. */
export function createIdempotentProducer(kafka: Kafka): Producer {
  return kafka.producer({ idempotent: true, maxInFlightRequests: 1, createPartitioner: Partitioners.DefaultPartitioner });
}

/** Creates the topics (and their `.dlq` twins) that are missing, with the partition count we key by. */
export async function ensureTopics(admin: Admin, topics: string[], known = new Set<string>()): Promise<void> {
  const wanted = topics.flatMap((topic) => [topic, `${topic}.dlq`]).filter((topic) => !known.has(topic));
  if (wanted.length === 0) return;
  const existing = new Set(await admin.listTopics());
  const missing = wanted.filter((topic) => !existing.has(topic));
  if (missing.length > 0) {
    await admin.createTopics({ waitForLeaders: true, topics: missing.map((topic) => ({ topic, numPartitions: TOPIC_PARTITIONS })) });
  }
  wanted.forEach((topic) => known.add(topic));
}

function toMessage(record: OutboxRecord) {
  return {
    key: record.key,
    value: JSON.stringify(record.envelope),
    headers: { 'event-type': record.envelope.type, 'correlation-id': record.envelope.correlationId },
  };
}

/** Publishes outbox records with an idempotent producer, waiting for every in-sync replica. */
export class KafkaEventPublisher implements EventPublisher {
  readonly transport = 'kafka';
  private readonly producer: Producer;
  private readonly admin: Admin;
  private readonly knownTopics = new Set<string>();
  private connected: Promise<void> | null = null;

  constructor(kafka: Kafka) {
    this.producer = createIdempotentProducer(kafka);
    this.admin = kafka.admin();
  }

  async publish(records: OutboxRecord[]): Promise<void> {
    this.connected ??= Promise.all([this.producer.connect(), this.admin.connect()]).then(() => undefined);
    await this.connected;
    const byTopic = new Map<string, OutboxRecord[]>();
    for (const record of records) byTopic.set(record.topic, [...(byTopic.get(record.topic) ?? []), record]);
    await ensureTopics(this.admin, [...byTopic.keys()], this.knownTopics);
    await this.producer.sendBatch({
      acks: -1,
      topicMessages: [...byTopic].map(([topic, list]) => ({ topic, messages: list.map(toMessage) })),
    });
  }

  async close(): Promise<void> {
    if (!this.connected) return;
    await Promise.allSettled([this.producer.disconnect(), this.admin.disconnect()]);
  }
}

/** Parks a failed event in `<topic>.dlq` of the topic it came from (an event type may travel on several). */
export class KafkaDeadLetterSink implements DeadLetterSink {
  constructor(private readonly producer: Producer) {}

  async park(envelope: EventEnvelope, error: unknown, topic = topicOfEventType(envelope.type)): Promise<void> {
    await this.producer.send({
      topic: `${topic}.dlq`,
      acks: -1,
      messages: [
        {
          key: envelope.id,
          value: JSON.stringify(envelope),
          headers: { 'event-type': envelope.type, 'correlation-id': envelope.correlationId, error: describe(error) },
        },
      ],
    });
  }
}
