import type DataLoader from 'dataloader';

/**
 * DataLoader options for reads gathered per round of the event loop: what is asked for while the loop handles one
 * round of I/O (many requests' callbacks) goes out as one statement or one pipeline. Under load a lone look-up paid
 * more for its round trip, the two processes waking each other on two cores, than for the look-up itself. Nothing
 * is remembered between rounds: the read cache decides what is kept.
 */
export function sameRound<K, V>(): DataLoader.Options<K, V, K> {
  return { cache: false, maxBatchSize: 100, batchScheduleFn: (send) => setImmediate(send) };
}
