import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { performance } from 'node:perf_hooks';
import { runInNewContext } from 'node:vm';

/** Heap grown past what the last collection left (bytes) that makes a quiet spell worth a full collection. */
export const IDLE_COLLECTION_GROWTH_BYTES = 16 * 1024 * 1024;
/** Event-loop utilisation under which a second counts as quiet. */
export const IDLE_UTILISATION = 0.05;
/** Quiet seconds in a row before collecting: a pause between two requests of a burst is not the burst's end. */
export const IDLE_SECONDS = 2;

/**
 * Decides, one reading a second, when a quiet process should collect. Kept apart from the timer and V8 so the rule can
 * be read and tested on its own.
 */
export class IdleCollectionRule {
  private quietSeconds = 0;
  private baseline: number;

  constructor(
    usedAfterLastCollection: number,
    private readonly growthBytes = IDLE_COLLECTION_GROWTH_BYTES,
    private readonly idleUtilisation = IDLE_UTILISATION,
    private readonly idleSeconds = IDLE_SECONDS,
  ) {
    this.baseline = usedAfterLastCollection;
  }

  /** One second's reading; true when the process should collect now. */
  shouldCollect(utilisation: number, usedHeap: number): boolean {
    // A collection V8 ran by itself lowers what is in use: measure growth from there.
    this.baseline = Math.min(this.baseline, usedHeap);
    this.quietSeconds = utilisation < this.idleUtilisation ? this.quietSeconds + 1 : 0;
    return this.quietSeconds >= this.idleSeconds && usedHeap - this.baseline >= this.growthBytes;
  }

  collected(usedHeap: number): void {
    this.baseline = usedHeap;
    this.quietSeconds = 0;
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
 * Runs one full collection when the process goes quiet after its heap has grown. V8 collects when allocation reaches
 * its heap limit and gives memory back to the system only then; after a burst of requests nothing allocates, so the
 * burst's garbage stays resident (hot-paths bench: content's old space at 90 MB in use 30 s after load, against 51 MB
 * live, and V8's memory reducer ran no collection in those seconds). One collection in the quiet spell returned about
 * 55 MB of content's RSS in a second. The timer does not keep the process alive.
 */
export function collectWhenIdle(intervalMs = 1000): () => void {
  const collect = fullCollection();
  const rule = new IdleCollectionRule(getHeapStatistics().used_heap_size);
  let last = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const { utilization } = performance.eventLoopUtilization(now, last);
    last = now;
    if (!rule.shouldCollect(utilization, getHeapStatistics().used_heap_size)) return;
    collect();
    rule.collected(getHeapStatistics().used_heap_size);
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
