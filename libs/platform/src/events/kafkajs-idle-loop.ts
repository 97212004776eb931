/**
 * kafkajs 2.2.4 (its last release) re-arms a timer on every connection's request queue even when nothing waits in
 * it: `scheduleCheckPendingRequests` computes a negative delay when the broker has not throttled, so each check
 * schedules the next one a millisecond later, for ever (kafkajs issues #1556 and #1704, fix proposed in pull request
 * #1667, never released). Every service's producer, consumer and admin connections spin this way: an idle service
 * burns CPU on nothing, and a busy one spends a share of its time in the timers and their garbage. The queue is
 * checked again anyway whenever a request is pushed or answered, so a
 * timer is needed only while requests wait: until the throttle ends, or every 10 ms (kafkajs's own interval) while
 * the in-flight limit holds them back.
 */
interface RequestQueue {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  checkPendingRequests(): void;
  scheduleCheckPendingRequests(): void;
}

const CHECK_PENDING_REQUESTS_INTERVAL_MS = 10;

/** kafkajs's internal module that holds the class, without types. */
export const REQUEST_QUEUE_MODULE = 'kafkajs/src/network/requestQueue';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- an internal module of kafkajs, without types
const RequestQueueClass = require(REQUEST_QUEUE_MODULE) as { prototype: RequestQueue };

/** Replaces the method on kafkajs's request queue class; the same for every call, so calling it again changes nothing. */
export function stopIdleRequestQueueLoop(): void {
  RequestQueueClass.prototype.scheduleCheckPendingRequests = function scheduleCheckPendingRequests(this: RequestQueue): void {
    if (this.pending.length === 0 || this.throttleCheckTimeoutId) return;
    const throttledFor = this.throttledUntil - Date.now();
    this.throttleCheckTimeoutId = setTimeout(
      () => {
        this.throttleCheckTimeoutId = null;
        this.checkPendingRequests();
      },
      throttledFor > 0 ? throttledFor : CHECK_PENDING_REQUESTS_INTERVAL_MS,
    );
  };
}
