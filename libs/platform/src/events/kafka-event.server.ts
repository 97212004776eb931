import type { Consumer, Kafka, Producer } from 'kafkajs';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { type ConsumerLag, consumerLagSources } from '../metrics/metrics';
import { EventDispatcher, TableDeadLetterSink } from './event-dispatcher';
import { EventServer } from './event-server';
import { createIdempotentProducer, ensureTopics, KafkaDeadLetterSink, TOPIC_PARTITIONS } from './kafka';

const RECONNECT_FIRST_MS = 1000;
const RECONNECT_MAX_MS = 30_000;

/**
 * The distributed transport: one consumer group per service. An offset is committed only after the
 * dispatcher has finished with the message (handled, duplicate or parked), so a crash redelivers instead of
 * losing, and the inbox turns the redelivery into a no-op. Messages of a partition are handled one at a time
 * (partitions side by side): while one is retried the rest of its partition wait, in order. The service starts whether or not Kafka answers; the consumer
 * connects in the background and again after a crash, and readiness says whether it is consuming.
 */
export class KafkaEventServer extends EventServer {
  private consumer: Consumer | null = null;
  private readonly producer: Producer;
  private consuming = false;
  private closed = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private topics: string[] = [];
  private readonly lagSource = () => this.lag();

  constructor(
    private readonly kafka: Kafka,
    service: string,
    dataSource: DataSource,
    private readonly log: Logger,
    private readonly sessionTimeoutMs = 30_000,
    private readonly topicPrefix = '',
  ) {
    const producer = createIdempotentProducer(kafka);
    super(new EventDispatcher(service, dataSource, new KafkaDeadLetterSink(producer, new TableDeadLetterSink(dataSource), topicPrefix), log));
    this.producer = producer;
  }

  listen(callback: () => void): void {
    this.topics = this.subscribedTopics().map((topic) => this.topicPrefix + topic);
    if (this.topics.length > 0) {
      consumerLagSources.add(this.lagSource);
      void this.connect(RECONNECT_FIRST_MS);
    }
    callback();
  }

  ready(): boolean {
    return this.topics.length === 0 || this.consuming;
  }

  private async connect(nextDelayMs: number): Promise<void> {
    if (this.closed) return;
    const consumer = this.kafka.consumer({
      groupId: `shiliu-${this.dispatcher.service}`,
      sessionTimeout: this.sessionTimeoutMs,
      heartbeatInterval: Math.min(3000, this.sessionTimeoutMs / 3),
    });
    this.consumer = consumer;
    try {
      const admin = this.kafka.admin();
      await admin.connect();
      await ensureTopics(admin, this.topics).finally(() => admin.disconnect());
      await this.producer.connect();
      await consumer.connect();
      consumer.on(consumer.events.GROUP_JOIN, () => (this.consuming = true));
      consumer.on(consumer.events.CRASH, ({ payload }) => {
        this.consuming = false;
        // kafkajs restarts the consumer itself after a retriable crash; otherwise it is replaced.
        if (!payload.restart) this.reconnectLater(consumer, RECONNECT_FIRST_MS);
      });
      consumer.on(consumer.events.DISCONNECT, () => (this.consuming = false));
      await consumer.subscribe({ topics: this.topics, fromBeginning: true });
      await consumer.run({
        autoCommit: true,
        // Partitions side by side, each still one message at a time and in order: a consumer otherwise handles one
        // message of all its partitions at a time, and falls behind as soon as events come faster than one handler.
        partitionsConsumedConcurrently: TOPIC_PARTITIONS,
        eachMessage: async ({ topic, message, heartbeat }) => {
          if (!message.value) return;
          const delivery = { topic: topic.slice(this.topicPrefix.length), key: message.key?.toString() ?? null, whileWaiting: heartbeat };
          await this.handleMessage(message.value.toString(), delivery);
        },
      });
      // Closed while connecting: the consumer that just started must not outlive the server.
      if (this.closed) await consumer.disconnect();
    } catch (error) {
      this.log.warn({ err: error, retryInMs: nextDelayMs }, 'Kafka consumer cannot start yet; retrying');
      this.reconnectLater(consumer, nextDelayMs);
    }
  }

  private reconnectLater(consumer: Consumer, delayMs: number): void {
    if (this.closed) return;
    this.consuming = false;
    this.retryTimer = setTimeout(() => {
      void consumer
        .disconnect()
        .catch(() => undefined)
        .then(() => this.connect(Math.min(delayMs * 2, RECONNECT_MAX_MS)));
    }, delayMs);
  }

  /** Per topic, how many messages lie between the group's committed offsets and the end of each partition. */
  private async lag(): Promise<ConsumerLag[]> {
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      const committed = await admin.fetchOffsets({ groupId: `shiliu-${this.dispatcher.service}`, topics: this.topics });
      const lags: ConsumerLag[] = [];
      for (const { topic, partitions } of committed) {
        const ends = await admin.fetchTopicOffsets(topic);
        let lag = 0;
        for (const end of ends) {
          const offset = Number(partitions.find((partition) => partition.partition === end.partition)?.offset ?? -1);
          // No committed offset yet: the group reads from the beginning, so all that is kept is behind it.
          lag += Number(end.high) - (offset >= 0 ? offset : Number(end.low));
        }
        lags.push({ service: this.dispatcher.service, topic: topic.slice(this.topicPrefix.length), lag });
      }
      return lags;
    } finally {
      await admin.disconnect();
    }
  }

  async close(): Promise<void> {
    consumerLagSources.delete(this.lagSource);
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    await this.consumer?.disconnect().catch(() => undefined);
    await this.producer.disconnect().catch(() => undefined);
  }
}
