import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { type ChannelSubscription, LOGGER, PgListener } from '@shiliu/platform';
import type { Logger } from 'pino';
import { DataSource, type EntityManager } from 'typeorm';
import { CachedSearchEngine } from './cached-engine';
import { SEARCH_ENGINE, type SearchEngine } from './search-engine';

/** The notification channel of a schema's index changes. */
export const indexChangesChannelOf = (schema: string): string => `${schema}_index`;

/**
 * Tells every replica of the search service that what notes or users are found by has changed. Sent inside the
 * change's transaction, it is heard on commit, after the write reached the engine.
 */
export async function announceIndexChange(connection: Pick<EntityManager, 'query'>, schema: string): Promise<void> {
  await connection.query('SELECT pg_notify($1, $2)', [indexChangesChannelOf(schema), '']);
}

/**
 * Announces index changes and hears everyone's, for the engine's kept answers (CachedSearchEngine). An engine that
 * keeps nothing (PostgreSQL shows each write at once) needs neither.
 */
@Injectable()
export class IndexChanges implements OnModuleInit, OnModuleDestroy {
  private notices: ChannelSubscription | null = null;

  constructor(
    @Inject(SEARCH_ENGINE) private readonly engine: SearchEngine,
    private readonly dataSource: DataSource,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  private get schema(): string {
    return (this.dataSource.options as { schema: string }).schema;
  }

  /** Within the transaction of the change (a handler's `context.manager`). */
  async announce(manager: EntityManager): Promise<void> {
    if (this.engine instanceof CachedSearchEngine) await announceIndexChange(manager, this.schema);
  }

  async onModuleInit(): Promise<void> {
    const engine = this.engine;
    if (!(engine instanceof CachedSearchEngine)) return;
    const options = this.dataSource.options as { url: string };
    this.notices = await PgListener.of(options.url, this.logger).subscribe(indexChangesChannelOf(this.schema), {
      notice: () => engine.changed(),
      up: () => engine.changed(),
      down: () => {
        this.logger.warn('search not hearing index changes; keeping answers a short while only until it is');
        engine.unsure();
      },
    });
  }

  async onModuleDestroy(): Promise<void> {
    await this.notices?.close();
  }
}
