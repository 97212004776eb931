import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { MemoryTtlStore, REDIS, RedisTtlStore, SERVICE_NAME, type TtlStore } from '@shiliu/platform';
import type { Redis } from 'ioredis';
import type { FeedFilter, FeedOrder } from './post.repository';

/** Orders whose ranks move with every view and like; the time orders are held still by the snapshot alone. */
export const MOVING_ORDERS: ReadonlySet<FeedOrder> = new Set<FeedOrder>(['hot', 'likes', 'views']);
/**
 * How many notes of a scroll are frozen: 12 pages of the default 20 and a whole number of pages for the usual
 * limits, while a first page reads no more than that many index entries.
 */
export const RANKING_DEPTH = 240;
/** A reader's scroll; a later page of an older one pages over the live order again. */
const RANKING_SECONDS = 20 * 60;
/** Embedded mode keeps at most this many scrolls (about 2 MB), so a flood of first pages cannot grow memory. */
const RANKINGS_IN_MEMORY = 1000;

/**
 * The rankings page 1 of a moving feed was drawn from, kept for the scroll it starts (in Redis when distributed,
 * in memory when embedded), under the feed's filter, order and snapshot: the snapshot the client sends back with
 * the next pages finds them, so those pages neither repeat nor skip a note however its counts change meanwhile.
 */
@Injectable()
export class FeedRankings {
  private readonly store: TtlStore;

  constructor(@Inject(REDIS) redis: Redis | null, @Inject(SERVICE_NAME) service: string) {
    this.store = redis ? new RedisTtlStore(redis, `shiliu:${service}:feed-rankings:`) : new MemoryTtlStore(RANKINGS_IN_MEMORY);
  }

  async save(filter: FeedFilter, order: FeedOrder, ids: number[]): Promise<void> {
    await this.store.set(keyOf(filter, order), ids.join(','), RANKING_SECONDS);
  }

  async find(filter: FeedFilter, order: FeedOrder): Promise<number[] | null> {
    const stored = await this.store.get(keyOf(filter, order));
    return stored === null ? null : stored.split(',').map(Number);
  }
}

/** A fixed-size key, whatever the length of the keyword. */
function keyOf(filter: FeedFilter, order: FeedOrder): string {
  const parts = [order, filter.drafts, filter.snapshot.toISOString(), filter.categoryTitle, filter.categoryId, filter.type, filter.authorId, filter.keyword, filter.exceptAuthorId];
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url');
}
