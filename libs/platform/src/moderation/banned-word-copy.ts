import { BadRequestException, Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { BannedWordsChangedPayload } from '@shiliu/contracts';
import type { Logger } from 'pino';
import { DataSource, type EntityManager } from 'typeorm';
import { type ChannelSubscription, PgListener } from '../database/pg-listener';
import { rowsOf } from '../database/rows';
import { LOGGER } from '../service/tokens';
import { BANNED_WORDS_MESSAGE, BannedWordMatcher } from './banned-words';

/** The notification channel that tells every replica of a service its copy of the list changed. */
const channelOf = (schema: string): string => `${schema}_banned_words`;

/**
 * The service's own copy of the banned-word list: kept in its `banned_word_copy` table from `banned-words.changed`,
 * and in memory for the checks. Every replica reloads it when the table changes (NOTIFY on commit), not only the one
 * whose consumer handled the event, and when its listening connection comes back, since notices may have been lost.
 */
@Injectable()
export class BannedWords implements OnModuleInit, OnModuleDestroy {
  private matcher = new BannedWordMatcher([]);
  private version = 0;
  private notices: ChannelSubscription | null = null;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  private get schema(): string {
    return (this.dataSource.options as { schema: string }).schema;
  }

  /** The list in force: its version and its words as normalised. */
  get list(): BannedWordsChangedPayload {
    return { version: this.version, words: this.matcher.words };
  }

  /** Refuses (400 内容包含违规词汇) when any of the texts holds a banned word. */
  check(...texts: (string | null | undefined)[]): void {
    for (const text of texts) {
      if (text && this.matcher.find(text) !== null) throw new BadRequestException(BANNED_WORDS_MESSAGE);
    }
  }

  /** Keeps a list newer than the copy's, in the event's transaction; every replica reloads once it commits. */
  async keep(manager: EntityManager, list: BannedWordsChangedPayload): Promise<void> {
    await manager.query(
      `INSERT INTO "banned_word_copy" ("id", "version", "words") VALUES (1, $1, $2::jsonb)
       ON CONFLICT ("id") DO UPDATE SET "version" = EXCLUDED."version", "words" = EXCLUDED."words", "updated_at" = now()
       WHERE "banned_word_copy"."version" <= EXCLUDED."version"`,
      [list.version, JSON.stringify(list.words)],
    );
    await manager.query('SELECT pg_notify($1, $2)', [channelOf(this.schema), '']);
  }

  async onModuleInit(): Promise<void> {
    const options = this.dataSource.options as { url: string };
    this.notices = await PgListener.of(options.url, this.logger).subscribe(channelOf(this.schema), {
      notice: () => void this.reload(),
      up: () => void this.reload(),
    });
    await this.reload();
  }

  async onModuleDestroy(): Promise<void> {
    await this.notices?.close();
  }

  private async reload(): Promise<void> {
    try {
      const [row] = await rowsOf<{ version: string; words: string[] }>(this.dataSource.manager, `SELECT "version", "words" FROM "banned_word_copy" WHERE "id" = 1`);
      // Reloads may finish out of order: an older list never replaces a newer one.
      if (row && Number(row.version) > this.version) {
        this.matcher = new BannedWordMatcher(row.words);
        this.version = Number(row.version);
      }
    } catch (err) {
      this.logger.warn({ err }, 'banned-word list not reloaded; keeping the one in memory');
    }
  }
}
