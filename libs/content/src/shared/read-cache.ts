import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { type ChannelSubscription, LOGGER, PgListener } from '@shiliu/platform';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import type { CommentRow } from '../comments/comment.repository';
import type { Candidate } from '../posts/affinity';
import type { PostRow } from '../posts/post.repository';

/** A first comment page as every viewer shares it (their likes are laid over it per request). */
export interface CachedCommentPage {
  rows: CommentRow[];
  replies: CommentRow[];
  total: number;
}

/** A feed page as every viewer shares it: its notes' ids, the feed's total and the snapshot a scroll continues from. */
export interface CachedFeedPage {
  ids: number[];
  total: number;
  snapshot: string;
}

/** A safety net only: every change that matters reaches the cache as a notification (migration ReadCacheNotices). */
const ENTRY_MS = 60_000;
/** How long a write waits for its own notices before it gives up on them and empties the cache instead. */
const SETTLE_MS = 2_000;

/** The notification channel of a schema's read cache, as the triggers name it. */
export const cacheChannelOf = (schema: string): string => `cache_${schema}`;

/**
 * Values keyed within groups (a note's comment pages are one group), each stored only if no invalidation of its
 * key or group happened since its read began: a read racing a change never puts the older value back.
 */
export class CacheRegion<V> {
  private readonly entries = new Map<string, { value: V; group: string; expiresAt: number }>();
  private readonly groups = new Map<string, Set<string>>();
  /** When each key or group was last invalidated, in ticks; forgotten wholesale past a bound (then `clearedAt` covers them). */
  private readonly invalidatedAt = new Map<string, number>();
  private clearedAt = 0;

  constructor(private readonly clock: { tick: number }, private readonly maxEntries: number) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt > Date.now()) return entry.value;
    this.drop(key);
    return undefined;
  }

  /** Stores what a read begun at `startedAt` (a tick) found, unless the key or its group changed meanwhile. */
  set(startedAt: number, value: V, group: string, key: string = group): void {
    if (startedAt < this.clearedAt || startedAt < (this.invalidatedAt.get(key) ?? -1) || startedAt < (this.invalidatedAt.get(group) ?? -1)) return;
    this.drop(key);
    if (this.entries.size >= this.maxEntries) this.drop(this.entries.keys().next().value as string);
    this.entries.set(key, { value, group, expiresAt: Date.now() + ENTRY_MS });
    let keys = this.groups.get(group);
    if (!keys) this.groups.set(group, (keys = new Set()));
    keys.add(key);
  }

  /**
   * Changes a kept value in place of dropping it, for a change known exactly (views added to a note); a read in
   * flight may have loaded the value before or after the change, so it is not kept.
   */
  revise(key: string, change: (value: V) => V): void {
    this.markChanged(key);
    const entry = this.entries.get(key);
    if (entry) entry.value = change(entry.value);
  }

  /** Drops a group (a key being a group of one) and remembers when. */
  invalidate(group: string): void {
    this.markChanged(group);
    for (const key of this.groups.get(group) ?? []) this.entries.delete(key);
    this.groups.delete(group);
    this.drop(group);
  }

  clear(): void {
    this.entries.clear();
    this.groups.clear();
    this.invalidatedAt.clear();
    this.clearedAt = this.clock.tick;
  }

  private markChanged(key: string): void {
    if (this.invalidatedAt.size >= this.maxEntries * 4) {
      this.invalidatedAt.clear();
      this.clearedAt = this.clock.tick;
    }
    this.invalidatedAt.set(key, this.clock.tick);
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    const keys = this.groups.get(entry.group);
    keys?.delete(key);
    if (keys?.size === 0) this.groups.delete(entry.group);
  }
}

/**
 * Cached reads of what is read far more than it changes, kept correct by the database: triggers on the tables
 * they come from NOTIFY each change on commit (`p<note id>` a note, `v<note id>:<views>` views added to it, `f` the
 * feeds' membership, `m` the moving orders, `c<note id>` its comments, `*` everything), whoever made it: a request, an event handler, an
 * administrator, another replica. The process's `PgListener` hears them; while its connection is down nothing is cached, and
 * reconnecting starts from an empty cache, since notices sent meanwhile are lost.
 */
@Injectable()
export class ReadCache implements OnModuleInit, OnModuleDestroy {
  /** Counts invalidations, so that a read knows whether one happened while it ran. */
  private readonly clock = { tick: 0 };
  /** Notes as a detail shows them (without the viewer's like and collection), by id. */
  readonly details = new CacheRegion<PostRow>(this.clock, 5_000);
  /** Notes as a feed card shows them, by id. */
  readonly cards = new CacheRegion<PostRow>(this.clock, 5_000);
  /** First comment pages, grouped by note. */
  readonly comments = new CacheRegion<CachedCommentPage>(this.clock, 2_000);
  /** Feed pages, grouped under `m` (moving orders) or `f` (time orders). */
  readonly feeds = new CacheRegion<CachedFeedPage>(this.clock, 500);
  /**
   * The personalised 推荐's candidates by source (the most engaging notes, a category's best, an author's newest),
   * the same for every viewer, grouped under `m` like the moving orders.
   */
  readonly candidates = new CacheRegion<Candidate[]>(this.clock, 5_000);
  /** How many published notes there are, grouped under `f`. */
  readonly published = new CacheRegion<number>(this.clock, 1);
  private notices: ChannelSubscription | null = null;
  private listening = false;
  /** Writes waiting for their notices, by the id of the marker each sent after them. */
  private readonly settling = new Map<string, () => void>();

  constructor(private readonly dataSource: DataSource, @Inject(LOGGER) private readonly logger: Logger) {}

  /** Whether cached values can be trusted now: notices are arriving. */
  get live(): boolean {
    return this.listening;
  }

  /** The tick to pass to `set` once a read has loaded its value. */
  begin(): number {
    return this.clock.tick;
  }

  /** The cached value, or what `load` reads (kept when it is not null and nothing changed meanwhile). */
  async through<V>(region: CacheRegion<V>, group: string, key: string, load: () => Promise<V | null>): Promise<V | null> {
    if (!this.live) return load();
    const hit = region.get(key);
    if (hit !== undefined) return hit;
    const startedAt = this.clock.tick;
    const value = await load();
    if (value !== null && this.live) region.set(startedAt, value, group, key);
    return value;
  }

  /**
   * Returns once every change committed so far has reached this process's cache: notices arrive in commit order,
   * so when a marker sent now comes back, those before it have been applied. A request that wrote waits for this
   * before it answers, so its author's next read cannot meet what it replaced.
   */
  async settle(): Promise<void> {
    if (!this.live) return;
    const marker = randomUUID();
    let timer: NodeJS.Timeout | undefined;
    const arrived = new Promise<boolean>((resolve) => {
      this.settling.set(marker, () => resolve(true));
      timer = setTimeout(() => resolve(false), SETTLE_MS);
    });
    try {
      await this.dataSource.query(`SELECT pg_notify($1, $2)`, [cacheChannelOf((this.dataSource.options as { schema: string }).schema), `=${marker}`]);
      if (!(await arrived)) this.apply('*');
    } finally {
      clearTimeout(timer);
      this.settling.delete(marker);
    }
  }

  async onModuleInit(): Promise<void> {
    const options = this.dataSource.options as { url: string; schema: string };
    this.notices = await PgListener.of(options.url, this.logger).subscribe(cacheChannelOf(options.schema), {
      notice: (payload) => this.apply(payload || '*'),
      up: () => {
        this.forgetAll();
        this.listening = true;
      },
      down: () => {
        this.logger.warn('read cache not listening for changes; reading through until it is');
        this.listening = false;
        this.forgetAll();
        for (const release of this.settling.values()) release();
      },
    });
  }

  async onModuleDestroy(): Promise<void> {
    this.listening = false;
    await this.notices?.close();
  }

  /** Applies one notice (exposed for the process's own writes, which need not wait for the round trip). */
  apply(notice: string): void {
    this.clock.tick++;
    for (const part of notice.split(' ')) {
      if (part.startsWith('=')) this.settling.get(part.slice(1))?.();
      else if (part === '*') this.clearAll();
      else if (part === 'f') {
        this.feeds.invalidate('f');
        this.feeds.invalidate('m');
        this.candidates.invalidate('m');
        this.published.invalidate('f');
      } else if (part === 'm') {
        this.feeds.invalidate('m');
        this.candidates.invalidate('m');
      }
      else if (part.startsWith('v')) {
        const [id, views] = part.slice(1).split(':');
        const added = (row: PostRow): PostRow => ({ ...row, view_count: row.view_count + Number(views) });
        this.details.revise(id, added);
        this.cards.revise(id, added);
      } else if (part.startsWith('p')) {
        const id = part.slice(1);
        this.details.invalidate(id);
        this.cards.invalidate(id);
        this.comments.invalidate(id);
      } else if (part.startsWith('c')) this.comments.invalidate(part.slice(1));
    }
  }

  private clearAll(): void {
    for (const region of [this.details, this.cards, this.comments, this.feeds, this.candidates, this.published]) region.clear();
  }

  /** Notices were or will be missed: nothing kept, and no read in flight may keep what it loaded. */
  private forgetAll(): void {
    this.clock.tick++;
    this.clearAll();
  }
}
