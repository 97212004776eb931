export interface EventStream {
  contentType: string;
  /** The next event's data, parsed as JSON, in arrival order (rejects after `timeoutMs`, by default a generous ceiling). */
  next(timeoutMs?: number): Promise<Record<string, number>>;
  /** Resolves at the next heartbeat line. */
  heartbeat(timeoutMs?: number): Promise<void>;
  /** Resolves when the server ends the stream (never when the test closes it). */
  ended: Promise<void>;
  close(): void;
}

/** How long a read waits for an event by default: only a failing test waits this long, however busy the machine. */
const WAIT_MS = 30_000;

/** Reads a server-sent events stream (JSON data, comment lines as heartbeats) the way a browser's EventSource would. */
export async function openEventStream(url: string, headers: Record<string, string> = {}): Promise<EventStream> {
  const abort = new AbortController();
  const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: abort.signal });
  if (response.status !== 200 || !response.body) throw new Error(`stream answered ${response.status}: ${await response.text()}`);
  const events: Record<string, number>[] = [];
  let heartbeats = 0;
  const waiting: { wake: (() => void) | null } = { wake: null };
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let serverEnded: () => void = () => undefined;
  const ended = new Promise<void>((resolve) => (serverEnded = resolve));
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) {
          serverEnded();
          return;
        }
        buffer += value;
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.startsWith(':')) heartbeats++;
          const data = block.split('\n').find((line) => line.startsWith('data: '));
          if (data) events.push(JSON.parse(data.slice(6)) as Record<string, number>);
          waiting.wake?.();
        }
      }
    } catch {
      // Closed by the test.
    }
  })();
  const until = async <T>(what: string, take: () => T | undefined, timeoutMs: number): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const taken = take();
      if (taken !== undefined) return taken;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${what} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        waiting.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  };
  return {
    ended,
    contentType: response.headers.get('content-type') ?? '',
    next: (timeoutMs = WAIT_MS) => until('event', () => events.shift(), timeoutMs),
    heartbeat: async (timeoutMs = WAIT_MS) => {
      const seen = heartbeats;
      await until('heartbeat', () => (heartbeats > seen ? true : undefined), timeoutMs);
    },
    close: () => abort.abort(),
  };
}
