import { setFlagsFromString } from 'node:v8';
import { performance } from 'node:perf_hooks';
import { runInNewContext } from 'node:vm';

/** Event-loop utilisation under which a second counts as quiet: a process serving a few calls a second is not idle. */
export const IDLE_UTILISATION = 0.02;
/** Event-loop utilisation from which a second counts as work whose garbage a later quiet spell should collect. */
export const BUSY_UTILISATION = 0.1;
/**
 * Quiet seconds in a row before collecting. A pause between two requests of a burst is not the burst's end, and V8
 * shrinks its young generation in a full collection only when the allocation rate it measured since its previous
 * collection is under 1 MB/s, which a collection only a few seconds after a burst still sees exceeded: ten quiet
 * seconds let the young generation the burst grew shrink back as well.
 */
export const IDLE_SECONDS = 10;
/** The shortest time between two idle collections, so calls in short bursts never pay for one every few seconds. */
export const IDLE_COLLECTION_GAP_MS = 20_000;

/**
 * Decides, one reading a second, when a quiet process should collect. Kept apart from the timer and V8 so the rule can
 * be read and tested on its own.
 */
export class IdleCollectionRule {
  private quietSeconds = 0;
  private busySinceCollection = false;
  private lastCollection = -Infinity;

  constructor(
    private readonly idleSeconds = IDLE_SECONDS,
    private readonly gapMs = IDLE_COLLECTION_GAP_MS,
  ) {}

  /** One second's reading; true when the process should collect now. */
  shouldCollect(utilisation: number, nowMs: number): boolean {
    if (utilisation >= BUSY_UTILISATION) this.busySinceCollection = true;
    this.quietSeconds = utilisation < IDLE_UTILISATION ? this.quietSeconds + 1 : 0;
    return this.busySinceCollection && this.quietSeconds >= this.idleSeconds && nowMs - this.lastCollection >= this.gapMs;
  }

  collected(nowMs: number): void {
    this.busySinceCollection = false;
    this.quietSeconds = 0;
    this.lastCollection = nowMs;
  }
}

/** V8's full collection, exposed to this process without a command-line flag (the images' and scripts' stay as they are). */
function fullCollection(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  setFlagsFromString('--expose-gc');
  // The flag installs `gc` only in contexts created after it is set.
  return runInNewContext('gc') as () => void;
}

/**
 * Runs one full collection when the process goes quiet after a spell of work. V8 collects when allocation reaches its
 * heap limit and gives memory back to the system only then; after a burst of requests nothing allocates, so the
 * burst's garbage and the young generation it grew stay resident, and V8's memory reducer was not seen to collect
 * in a quiet spell after load. One collection once the process is quiet hands that memory back while no request is
 * there to wait for it. The timer does not keep the process alive.
 */
export function collectWhenIdle(intervalMs = 1000, rule = new IdleCollectionRule()): void {
  const collect = fullCollection();
  let last = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const { utilization } = performance.eventLoopUtilization(now, last);
    last = now;
    if (!rule.shouldCollect(utilization, Date.now())) return;
    collect();
    rule.collected(Date.now());
  }, intervalMs);
  timer.unref();
}
