import type { IncomingMessage, ServerResponse } from 'node:http';

/** At shutdown, how long no call must have come before the server closes, and the most it waits for that. */
const QUIET_MS = 500;
const MAX_MS = 5000;

/**
 * The answers an HTTP server has under way, so that closing it lets its callers go cleanly (services and the
 * gateway alike). Once closing, every answer tells its client to drop the connection (`Connection: close`): a
 * caller that keeps connections alive, as the gateway's proxy does, then opens its next one to another instance
 * instead of holding this one open until its grace period runs out (a load balancer only steers new connections
 * away). An event stream never finishes by itself, and a server does not close while one is open: streams are
 * ended at once, and the browser's EventSource reconnects to another instance.
 */
export class AnswerTracker {
  private closing = false;
  private lastRequestAt = 0;
  private readonly answering = new Set<ServerResponse>();

  /** The first middleware of the app. */
  readonly middleware = (_req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    if (this.closing) res.shouldKeepAlive = false;
    this.lastRequestAt = Date.now();
    this.answering.add(res);
    res.once('close', () => this.answering.delete(res));
    next();
  };

  /**
   * Ends the event streams, then waits (5 s at most) until no answer is under way and no call has come for a moment:
   * closing the server drops idle kept-alive connections, and a client may be sending on one right then.
   */
  async drain(): Promise<void> {
    this.closing = true;
    for (const res of this.answering) {
      if (String(res.getHeader('content-type') ?? '').startsWith('text/event-stream')) res.end();
      else if (!res.headersSent) res.shouldKeepAlive = false;
    }
    const drainedBy = Date.now() + MAX_MS;
    while (Date.now() < drainedBy && (this.answering.size > 0 || Date.now() - this.lastRequestAt < QUIET_MS)) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
