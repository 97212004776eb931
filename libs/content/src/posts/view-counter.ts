import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import DataLoader from 'dataloader';
import { LOGGER, MemoryTtlStore, REDIS, SERVICE_NAME } from '@shiliu/platform';
import type { Redis, Result } from 'ioredis';
import type { Logger } from 'pino';
import { ReadCache } from '../shared/read-cache';
import { sameRound } from '../shared/same-round';
import { PostRepository } from './post.repository';

/** A viewer counts once per note per hour. */
const VIEW_WINDOW_SECONDS = 60 * 60;
/** How often counted views reach the notes' rows: well inside the minute within which counts must be exact. */
export const VIEW_FLUSH_MS = 5_000;

/** Views counted but not yet added to the notes' rows, by note id, and who was counted for each note this hour. */
interface PendingViews {
  /** Counts a view unless `viewer` was counted for the note within the hour (or none is given); answers the note's pending views. */
  count(postId: number, viewer: string | null): Promise<number>;
  /** Hands the pending counts to `apply` and forgets them once it has succeeded; one flusher at a time. */
  drain(apply: (counts: Map<number, number>) => Promise<void>): Promise<void>;
}

class MemoryPendingViews implements PendingViews {
  private readonly counts = new Map<number, number>();
  private readonly viewers = new MemoryTtlStore();
  private flushing: Promise<void> = Promise.resolve();

  async count(postId: number, viewer: string | null): Promise<number> {
    if (viewer !== null && (await this.viewers.setIfAbsent(`${postId}:${viewer}`, '1', VIEW_WINDOW_SECONDS))) this.counts.set(postId, (this.counts.get(postId) ?? 0) + 1);
    return this.counts.get(postId) ?? 0;
  }

  drain(apply: (counts: Map<number, number>) => Promise<void>): Promise<void> {
    const run = async () => {
      // The counts stay pending until the rows have them, as in Redis: a detail read meanwhile adds them to the row it has.
      const taken = new Map(this.counts);
      await apply(taken);
      for (const [postId, count] of taken) {
        const left = (this.counts.get(postId) ?? 0) - count;
        if (left === 0) this.counts.delete(postId);
        else this.counts.set(postId, left);
      }
    };
    this.flushing = this.flushing.then(run, run);
    return this.flushing;
  }
}

declare module 'ioredis' {
  interface RedisCommander<Context> {
    /** COUNT_ONCE, sent by its hash once Redis has it (`defineCommand`). */
    countViewOnce(seen: string, tally: string, windowSeconds: number, postId: string, mark: '' | '1'): Result<number, Context>;
    /** TAKE_OFF, sent by its hash: note ids and counts, alternating. */
    takeViewsOff(tally: string, ...idsAndCounts: string[]): Result<number, Context>;
  }
}

/** Marks the viewer for the window when asked to (ARGV[3]) and, if the mark is new, adds the view to the tally. */
const COUNT_ONCE = `
if ARGV[3] ~= '' and redis.call('SET', KEYS[1], '1', 'EX', ARGV[1], 'NX') then
  return redis.call('HINCRBY', KEYS[2], ARGV[2], 1)
end
return tonumber(redis.call('HGET', KEYS[2], ARGV[2]) or '0')`;

/**
 * Takes applied counts off the tally and drops the notes left with none. A note left at zero would otherwise stay in
 * the hash for good, and every flush after would read it and write its row again: every note viewed since the tally
 * began, every few seconds.
 */
const TAKE_OFF = `
for i = 1, #ARGV, 2 do
  if redis.call('HINCRBY', KEYS[1], ARGV[i], -tonumber(ARGV[i + 1])) <= 0 then redis.call('HDEL', KEYS[1], ARGV[i]) end
end
return 0`;

/**
 * Distributed mode: one hash shared by every replica. A flush reads it, applies it, then takes exactly what it
 * applied off the hash (views counted meanwhile stay); a lock keeps two replicas from applying the same counts.
 */
class RedisPendingViews implements PendingViews {
  /** The views of a round's details go to Redis as one pipeline of scripts (`sameRound`). */
  private readonly views = new DataLoader<{ postId: number; viewer: string | null }, number>(
    async (views) => {
      const pipeline = this.redis.pipeline();
      for (const { postId, viewer } of views) pipeline.countViewOnce(`${this.seenPrefix}${postId}:${viewer ?? ''}`, this.key, VIEW_WINDOW_SECONDS, String(postId), viewer === null ? '' : '1');
      const answers = (await pipeline.exec()) ?? [];
      return views.map((_, index) => {
        const [error, counted] = answers[index] ?? [new Error('no answer from Redis'), null];
        return error ?? Number(counted);
      });
    },
    sameRound(),
  );

  constructor(private readonly redis: Redis, private readonly key: string, private readonly seenPrefix: string) {
    // By hash rather than as source: Redis neither receives nor hashes the script again for every view.
    redis.defineCommand('countViewOnce', { numberOfKeys: 2, lua: COUNT_ONCE });
    redis.defineCommand('takeViewsOff', { numberOfKeys: 1, lua: TAKE_OFF });
  }

  /** The viewer's mark, the tally and its reading in one script. */
  count(postId: number, viewer: string | null): Promise<number> {
    return this.views.load({ postId, viewer });
  }

  async drain(apply: (counts: Map<number, number>) => Promise<void>): Promise<void> {
    const lock = `${this.key}:flushing`;
    if ((await this.redis.set(lock, '1', 'PX', 30_000, 'NX')) !== 'OK') return;
    try {
      const raw = Object.entries(await this.redis.hgetall(this.key));
      if (raw.length === 0) return;
      // A note at zero (left by a build that kept them) needs no write, only dropping.
      await apply(new Map(raw.map(([postId, count]) => [Number(postId), Number(count)] as const).filter(([, count]) => count > 0)));
      await this.redis.takeViewsOff(this.key, ...raw.flat());
    } finally {
      await this.redis.del(lock);
    }
  }
}

/**
 * View counting without a write to the note's row on the read path: a viewer is marked for an hour (in Redis when
 * distributed, in memory when embedded) and counted in a pending tally, which is added to the rows in one batched
 * statement every few seconds and at shutdown. A detail shows the row's count plus what is pending, so every
 * reader sees an exact count at once, and the rows are exact within a minute.
 */
@Injectable()
export class ViewCounter implements OnModuleInit, OnModuleDestroy {
  private readonly pending: PendingViews;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly posts: PostRepository,
    @Inject(REDIS) redis: Redis | null,
    @Inject(SERVICE_NAME) service: string,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly cache: ReadCache,
  ) {
    const prefix = `shiliu:${service}:views`;
    this.pending = redis ? new RedisPendingViews(redis, `${prefix}:pending`, `${prefix}:seen:`) : new MemoryPendingViews();
  }

  onModuleInit(): void {
    this.timer = setInterval(() => void this.flush().catch((err: unknown) => this.logger.error({ err }, 'could not flush view counts')), VIEW_FLUSH_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush();
  }

  /**
   * Counts the view unless this viewer was counted for the note within the hour (or none is given: the client
   * counted it already); answers the note's views not yet on its row.
   */
  count(postId: number, viewer: string | null): Promise<number> {
    return this.pending.count(postId, viewer);
  }

  /** Adds the pending views to the notes' rows, one statement for all of them (deleted notes simply match nothing). */
  async flush(): Promise<void> {
    await this.pending.drain(async (counts) => {
      if (counts.size === 0) return;
      await this.posts.addViews(counts);
      // The views leave the tally only once this process's cached rows have them: a detail read in between would
      // add a tally without them to a row without them.
      await this.cache.settle();
    });
  }
}
