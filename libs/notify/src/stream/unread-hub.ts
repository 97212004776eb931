import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { LOGGER, REDIS, SERVICE_NAME } from '@shiliu/platform';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { DataSource, type EntitySubscriberInterface, type TransactionCommitEvent } from 'typeorm';
import { takeUnreadChanged } from './unread-changes';

/**
 * Tells every open unread stream, on whichever replica it is held, that its user's counts changed. A transaction
 * that moved counters announces its users once it has committed: to this replica's streams at once, and with Redis
 * (distributed mode) to the other replicas through one pub/sub channel that every replica listens to, one message
 * per commit naming the replica it came from, which ignores its own (its streams have been told already, without
 * waiting on a round trip through Redis).
 */
@Injectable()
export class UnreadHub implements OnModuleInit, OnModuleDestroy, EntitySubscriberInterface {
  private readonly local = new EventEmitter().setMaxListeners(0);
  private listener: Redis | null = null;
  private readonly channel: string;
  private readonly replica = randomUUID();

  constructor(
    private readonly dataSource: DataSource,
    @Inject(REDIS) private readonly redis: Redis | null,
    @Inject(SERVICE_NAME) service: string,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.channel = `shiliu:${service}:unread-changed`;
  }

  async onModuleInit(): Promise<void> {
    this.dataSource.subscribers.push(this);
    if (!this.redis) return;
    this.listener = this.redis.duplicate();
    this.listener.on('message', (_channel: string, message: string) => {
      const [from, userIds] = message.split(' ');
      if (userIds && from !== this.replica) this.tell(userIds.split(','));
    });
    await this.listener.subscribe(this.channel);
  }

  async onModuleDestroy(): Promise<void> {
    const index = this.dataSource.subscribers.indexOf(this);
    if (index >= 0) this.dataSource.subscribers.splice(index, 1);
    await this.listener?.quit();
  }

  /** Calls `listener` whenever the user's unread counts change; answers the function that stops it. */
  watch(userId: number, listener: () => void): () => void {
    const key = String(userId);
    this.local.on(key, listener);
    return () => this.local.off(key, listener);
  }

  afterTransactionCommit(event: TransactionCommitEvent): void {
    // A savepoint's release is not the commit: the outer transaction may still roll back.
    if (event.queryRunner.isTransactionActive) return;
    const userIds = takeUnreadChanged(event.queryRunner.data as Record<string, unknown>);
    if (userIds.length > 0) this.announce(userIds);
  }

  private announce(userIds: number[]): void {
    this.tell(userIds);
    // A lost announcement only delays a badge until the next change or reconnect; the counts themselves are committed.
    this.redis?.publish(this.channel, `${this.replica} ${userIds.join(',')}`).catch((error: unknown) => this.logger.warn({ err: error }, 'announcing unread counts failed'));
  }

  private tell(userIds: Iterable<number | string>): void {
    for (const id of userIds) this.local.emit(String(id));
  }
}
