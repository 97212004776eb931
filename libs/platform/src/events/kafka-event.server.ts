import type { EventEnvelope } from '@shiliu/contracts';
import type { Consumer, Kafka, Producer } from 'kafkajs';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { EventDispatcher } from './event-dispatcher';
import { EventServer } from './event-server';
import { createIdempotentProducer, ensureTopics, KafkaDeadLetterSink } from './kafka';

/**
 * The distributed transport: one consumer group per service. An offset is committed only after the
 * dispatcher has finished with the message (handled, duplicate or parked in the DLQ), so a crash
 * redelivers instead of losing, and the inbox turns the redelivery into a no-op.
 */
export class KafkaEventServer extends EventServer {
  private readonly consumer: Consumer;
  private readonly producer: Producer;

  constructor(
    private readonly kafka: Kafka,
    service: string,
    dataSource: DataSource,
    private readonly log: Logger,
    sessionTimeoutMs = 30_000,
  ) {
    const producer = createIdempotentProducer(kafka);
    super(new EventDispatcher(service, dataSource, new KafkaDeadLetterSink(producer), log));
    this.producer = producer;
    this.consumer = kafka.consumer({ groupId: `shiliu-${service}`, sessionTimeout: sessionTimeoutMs, heartbeatInterval: Math.min(3000, sessionTimeoutMs / 3) });
  }

  async listen(callback: () => void): Promise<void> {
    try {
      const topics = this.subscribedTopics();
      if (topics.length > 0) {
        const admin = this.kafka.admin();
        await admin.connect();
        await ensureTopics(admin, topics).finally(() => admin.disconnect());
        await this.producer.connect();
        await this.consumer.connect();
        await this.consumer.subscribe({ topics, fromBeginning: true });
        await this.consumer.run({
          autoCommit: true,
          eachMessage: async ({ topic, message }) => {
            if (!message.value) return;
            const envelope = JSON.parse(message.value.toString()) as EventEnvelope;
            await this.handleEnvelope(envelope, topic);
          },
        });
      }
      callback();
    } catch (error) {
      this.log.error({ err: error }, 'Kafka event server failed to start');
      throw error;
    }
  }

  async close(): Promise<void> {
    await this.consumer.disconnect();
    await this.producer.disconnect();
  }
}
