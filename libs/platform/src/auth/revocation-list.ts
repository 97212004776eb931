import type { Redis } from 'ioredis';
import { decodeJwt } from 'jose';
import type { Logger } from 'pino';
import { bearerToken } from './access-token.guard';
import { ACCESS_TOKEN_SECONDS } from './token-verifier';

/**
 * Sessions revoked before their access tokens ran out (logout, password change, refresh-token reuse, account or
 * administrator deletion). Every service and the gateway consult it on each request without a call to auth:
 * the check is a look-up in this process's memory, which auth keeps current by publishing each revocation.
 * An entry lives as long as the longest access token the session may have issued.
 */
export interface RevocationList {
  revoke(sessionIds: readonly string[]): Promise<void>;
  isRevoked(sessionId: string): boolean;
  close(): Promise<void>;
}

/** The embedded default: one list in the one process, shared by every service module and the gateway. */
export class MemoryRevocationList implements RevocationList {
  private readonly until = new Map<string, number>();

  async revoke(sessionIds: readonly string[]): Promise<void> {
    this.add(sessionIds, Date.now() + ACCESS_TOKEN_SECONDS * 1000);
  }

  isRevoked(sessionId: string): boolean {
    const until = this.until.get(sessionId);
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    this.until.delete(sessionId);
    return false;
  }

  async close(): Promise<void> {
    this.until.clear();
  }

  protected add(sessionIds: readonly string[], until: number): void {
    for (const id of sessionIds) this.until.set(id, until);
    if (this.until.size < 10_000) return;
    const now = Date.now();
    for (const [id, expiry] of this.until) if (expiry <= now) this.until.delete(id);
  }
}

/**
 * Whether a request's bearer token names a revoked session, read without checking the signature: the gateway
 * uses it to turn such a call away before it reaches a service (which verifies the token in full anyway).
 */
export function carriesRevokedSession(authorization: string | undefined, revocations: RevocationList): boolean {
  const token = bearerToken(authorization);
  if (!token) return false;
  try {
    const { sid } = decodeJwt(token);
    return typeof sid === 'string' && revocations.isRevoked(sid);
  } catch {
    return false;
  }
}

/** Resolves once the client takes commands. */
function connected(client: Redis): Promise<void> {
  return client.status === 'ready' ? Promise.resolve() : new Promise((resolve) => client.once('ready', () => resolve()));
}

const REVOKED_SET = 'shiliu:revoked-sessions';
const REVOKED_CHANNEL = 'shiliu:sessions-revoked';

/**
 * Distributed mode: revocations are kept in a Redis sorted set (scored by when they may be forgotten) and
 * announced on a channel. Each process holds the set in memory, loads it whenever its subscription (re)connects,
 * so a process that starts late or lost Redis for a while catches up, and adds what the channel announces.
 */
export class RedisRevocationList extends MemoryRevocationList {
  private readonly subscriber: Redis;
  private readonly ready: Promise<void>;

  constructor(private readonly redis: Redis, private readonly logger: Logger) {
    super();
    // Its own connection, made at once even for a client that connects on first use.
    this.subscriber = redis.duplicate({ lazyConnect: false });
    this.subscriber.on('message', (_channel: string, message: string) => {
      const { ids, until } = JSON.parse(message) as { ids: string[]; until: number };
      this.add(ids, until);
    });
    this.subscriber.on('error', (err) => this.logger.warn({ err }, 'revocation channel unavailable'));
    this.ready = new Promise((resolve) => {
      this.subscriber.on('ready', () => {
        this.subscriber
          .subscribe(REVOKED_CHANNEL)
          // The commands' connection may come up after this one, and a client without an offline queue (the gateway's) refuses a command before.
          .then(() => connected(this.redis))
          .then(() => this.load())
          .then(resolve, (err: unknown) => this.logger.error({ err }, 'could not load revoked sessions'));
      });
    });
  }

  /** Resolves once the revocations made before this process started are known. */
  whenReady(): Promise<void> {
    return this.ready;
  }

  override async revoke(sessionIds: readonly string[]): Promise<void> {
    if (sessionIds.length === 0) return;
    const until = Date.now() + ACCESS_TOKEN_SECONDS * 1000;
    this.add(sessionIds, until);
    await this.redis
      .multi()
      .zadd(REVOKED_SET, ...sessionIds.flatMap((id) => [until, id]))
      .zremrangebyscore(REVOKED_SET, '-inf', Date.now())
      .publish(REVOKED_CHANNEL, JSON.stringify({ ids: sessionIds, until }))
      .exec();
  }

  override async close(): Promise<void> {
    this.subscriber.disconnect();
    await super.close();
  }

  private async load(): Promise<void> {
    const entries = await this.redis.zrangebyscore(REVOKED_SET, Date.now(), '+inf', 'WITHSCORES');
    for (let i = 0; i < entries.length; i += 2) this.add([entries[i]], Number(entries[i + 1]));
  }
}
