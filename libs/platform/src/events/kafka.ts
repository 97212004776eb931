import { topicOfEventType } from '@shiliu/contracts';
import { type Admin, Kafka, logLevel, Partitioners, type Producer } from 'kafkajs';
import type { Logger } from 'pino';
import type { DeadLetter, DeadLetterSink } from './event-dispatcher';
import { isTransient } from './failure';
import { stopIdleRequestQueueLoop } from './kafkajs-idle-loop';
import type { EventPublisher, OutboxRecord } from './event-publisher';

export const TOPIC_PARTITIONS = 3;

export function createKafka(brokers: string[], clientId: string, logger: Logger): Kafka {
  stopIdleRequestQueueLoop();
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

/**
 * Publishes outbox records with an idempotent producer, waiting for every in-sync replica. A failed connection
 * is not kept: the next publish (or readiness check) connects afresh, so publishing resumes by itself when
 * Kafka comes back, whether it was down at start-up or went away later.
 */
export class KafkaEventPublisher implements EventPublisher {
  readonly transport = 'kafka';
  private readonly producer: Producer;
  private readonly admin: Admin;
  private readonly knownTopics = new Set<string>();
  private connection: Promise<void> | null = null;
  private healthy = false;

  constructor(kafka: Kafka, private readonly logger: Logger, private readonly topicPrefix = '') {
    this.producer = createIdempotentProducer(kafka);
    this.admin = kafka.admin();
  }

  async publish(records: OutboxRecord[]): Promise<void> {
    try {
      await this.connect();
      const byTopic = new Map<string, OutboxRecord[]>();
      for (const record of records) {
        const topic = this.topicPrefix + record.topic;
        byTopic.set(topic, [...(byTopic.get(topic) ?? []), record]);
      }
      await ensureTopics(this.admin, [...byTopic.keys()], this.knownTopics);
      await this.producer.sendBatch({
        acks: -1,
        topicMessages: [...byTopic].map(([topic, list]) => ({ topic, messages: list.map(toMessage) })),
      });
      this.healthy = true;
    } catch (error) {
      if (isTransient(error)) await this.disconnect();
      throw error;
    }
  }

  /** Whether Kafka answered the last attempt; asking starts a connection attempt when none is under way. */
  ready(): boolean {
    this.connect().catch((err: unknown) => this.logger.warn({ err }, 'Kafka producer cannot connect yet'));
    return this.healthy;
  }

  private connect(): Promise<void> {
    this.connection ??= Promise.all([this.producer.connect(), this.admin.connect()]).then(
      () => {
        this.healthy = true;
      },
      async (error: unknown) => {
        await this.disconnect();
        throw error;
      },
    );
    return this.connection;
  }

  private async disconnect(): Promise<void> {
    this.healthy = false;
    this.connection = null;
    await Promise.allSettled([this.producer.disconnect(), this.admin.disconnect()]);
  }

  async close(): Promise<void> {
    if (this.connection) await this.disconnect();
  }
}

/**
 * A consumer group is namespaced like the topics: deployments (or test runs) sharing one broker under different
 * prefixes must not share a group, or each start waits on a rebalance with the other's members, live or dead.
 */
export function consumerGroupId(topicPrefix: string, service: string): string {
  return `${topicPrefix}shiliu-${service}`;
}

/** Parks a failed message in `<topic>.dlq` of the topic it came from (an event type may travel on several), and in the consumer's table for replay. */
export class KafkaDeadLetterSink implements DeadLetterSink {
  constructor(private readonly producer: Producer, private readonly table: DeadLetterSink, private readonly topicPrefix = '') {}

  async park(letter: DeadLetter): Promise<void> {
    // Whatever arrives through Kafka knows its topic; an envelope handed over otherwise goes by its type.
    const topic = letter.topic ?? topicOfEventType(letter.envelope?.type ?? '');
    const headers: Record<string, string> = { consumer: letter.consumer, 'consumer-group': consumerGroupId(this.topicPrefix, letter.consumer), reason: letter.reason, error: letter.error };
    if (letter.envelope) Object.assign(headers, { 'event-type': letter.envelope.type, 'correlation-id': letter.envelope.correlationId });
    await this.producer.send({
      topic: `${this.topicPrefix}${topic}.dlq`,
      acks: -1,
      messages: [{ key: letter.key ?? letter.envelope?.id ?? null, value: letter.envelope ? JSON.stringify(letter.envelope) : (letter.raw ?? ''), headers }],
    });
    await this.table.park(letter);
  }
}
