import type { Admin, Consumer, Kafka, Producer } from 'kafkajs';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { EventDispatcher, TableDeadLetterSink } from './event-dispatcher';
import { EventServer } from './event-server';
import { type ConsumerLag, consumerLagSources } from '../metrics/metrics';
import { consumerGroupId, createIdempotentProducer, ensureTopics, KafkaDeadLetterSink, TOPIC_PARTITIONS } from './kafka';

const RECONNECT_FIRST_MS = 1000;
const RECONNECT_MAX_MS = 30_000;
/** A scrape never waits longer than this for the lag figures. */
const LAG_TIMEOUT_MS = 3000;
/** The most messages of a partition handled in one transaction: enough to catch up at once, few enough to keep a transaction short. */
const MAX_RUN = 100;

/**
 * The distributed transport: one consumer group per service. An offset is committed only after the
 * dispatcher has finished with the message (handled, duplicate or parked), so a crash redelivers instead of
 * losing, and the inbox turns the redelivery into a no-op. Messages of a partition are handled in order
 * (partitions side by side), those that arrived together in one transaction: while one is retried the rest of its
 * partition wait. The service starts whether or not Kafka answers; the consumer
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
      groupId: consumerGroupId(this.topicPrefix, this.dispatcher.service),
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
        // Partitions side by side, each in order: a consumer otherwise handles one batch of all its partitions at a
        // time, and falls behind as soon as events come faster than one handler.
        partitionsConsumedConcurrently: TOPIC_PARTITIONS,
        // An offset is resolved only once its run of messages has committed, so a crash mid-batch redelivers the rest.
        eachBatchAutoResolve: false,
        eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
          const topic = batch.topic.slice(this.topicPrefix.length);
          // What waited in the partition while the last run was handled goes through as one run (one transaction).
          for (let from = 0; from < batch.messages.length; from += MAX_RUN) {
            if (!isRunning() || isStale()) return;
            const run = batch.messages.slice(from, from + MAX_RUN);
            await this.handleMessages(
              run.flatMap((message) =>
                message.value ? [{ raw: message.value.toString(), delivery: { topic, key: message.key?.toString() ?? null, whileWaiting: heartbeat } }] : [],
              ),
            );
            resolveOffset(run[run.length - 1].offset);
            await heartbeat();
          }
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

  /** The group's lag per topic: the latest offset of each partition minus the committed one (or the earliest, before any commit). */
  private async lag(): Promise<ConsumerLag[]> {
    const group = consumerGroupId(this.topicPrefix, this.dispatcher.service);
    const admin = this.kafka.admin();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('Kafka lag timed out')), LAG_TIMEOUT_MS)));
    try {
      return await Promise.race([this.lagWith(admin, group), timeout]);
    } finally {
      clearTimeout(timer);
      void admin.disconnect().catch(() => undefined);
    }
  }

  private async lagWith(admin: Admin, group: string): Promise<ConsumerLag[]> {
    await admin.connect();
    const committed = await admin.fetchOffsets({ groupId: group, topics: this.topics });
    return Promise.all(
      committed.map(async ({ topic, partitions }) => {
        const ends = new Map((await admin.fetchTopicOffsets(topic)).map((end) => [end.partition, end]));
        let lag = 0;
        for (const { partition, offset } of partitions) {
          const end = ends.get(partition);
          if (!end) continue;
          const from = Number(offset) >= 0 ? Number(offset) : Number(end.low);
          lag += Math.max(0, Number(end.high) - from);
        }
        return { service: this.dispatcher.service, group, topic: topic.slice(this.topicPrefix.length), lag };
      }),
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    consumerLagSources.delete(this.lagSource);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    await this.consumer?.disconnect().catch(() => undefined);
    await this.producer.disconnect().catch(() => undefined);
  }
}
