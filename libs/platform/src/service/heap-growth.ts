import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow past what survived its last full collection, in percent. Left to itself
 * on a machine with memory to spare, V8 lets it grow to several times that before it collects, so after load most of
 * a service's old space is garbage, and a process's RSS, and so the memory limit it needs, follows. At 50 % the full
 * collections come more often, each marking the same live objects: the CPU a request costs stayed within the
 * benchmarks' run-to-run spread, where a tighter bound cost clearly more (bench/README.md, hot-paths).
 */
export const HEAP_GROWING_PERCENT = 50;

/** Applies HEAP_GROWING_PERCENT to this process: V8 reads it whenever a full collection sets the next limit. */
export function boundHeapGrowth(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
