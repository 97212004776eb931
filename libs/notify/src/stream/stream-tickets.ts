import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { REDIS } from '@shiliu/platform';
import type { Redis } from 'ioredis';
import { NOTIFY_SETTINGS, type NotifySettings } from '../notify.settings';

/** Whom a ticket opens a stream for, and until when: the session it came from and its access token's expiry. */
export interface StreamHolder {
  /** The user's numeric id. */
  id: string;
  sessionId: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

/**
 * Short-lived single-use tickets that open an unread stream, so that no access token is ever part of a URL (which
 * proxies and logs keep). With Redis a ticket taken on one replica opens a stream on any other; in memory otherwise.
 */
@Injectable()
export class StreamTickets {
  private readonly memory = new Map<string, { holder: StreamHolder; until: number }>();

  constructor(
    @Inject(REDIS) private readonly redis: Redis | null,
    @Inject(NOTIFY_SETTINGS) private readonly settings: NotifySettings,
  ) {}

  get lifetimeSeconds(): number {
    return this.settings.NOTIFY_STREAM_TICKET_SECONDS;
  }

  async issue(holder: StreamHolder): Promise<string> {
    const ticket = randomBytes(24).toString('base64url');
    if (this.redis) {
      await this.redis.set(keyOf(ticket), JSON.stringify(holder), 'EX', this.lifetimeSeconds);
      return ticket;
    }
    const now = Date.now();
    for (const [key, entry] of this.memory) if (entry.until <= now) this.memory.delete(key);
    this.memory.set(ticket, { holder, until: now + this.lifetimeSeconds * 1000 });
    return ticket;
  }

  /** Who the ticket was issued to, once: a second use, an unknown or a lapsed ticket answers null. */
  async redeem(ticket: string): Promise<StreamHolder | null> {
    if (this.redis) {
      const stored = await this.redis.getdel(keyOf(ticket));
      return stored ? (JSON.parse(stored) as StreamHolder) : null;
    }
    const entry = this.memory.get(ticket);
    this.memory.delete(ticket);
    return entry && entry.until > Date.now() ? entry.holder : null;
  }
}

function keyOf(ticket: string): string {
  return `shiliu:notify:stream-ticket:${ticket}`;
}
