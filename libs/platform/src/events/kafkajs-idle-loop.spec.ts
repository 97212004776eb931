import { REQUEST_QUEUE_MODULE, stopIdleRequestQueueLoop } from './kafkajs-idle-loop';

interface Queue {
  pending: unknown[];
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  push(request: object): void;
  fulfillRequest(response: object): void;
  maybeThrottle(ms: number): void;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the kafkajs class the patch applies to
const RequestQueue = require(REQUEST_QUEUE_MODULE) as new (options: object) => Queue;
const logger = { debug: () => undefined, warn: () => undefined, error: () => undefined, info: () => undefined };

let correlation = 0;
/** A request as kafkajs's connection pushes it; `sent` resolves when the queue sends it. */
function request(): { pushed: object; sent: Promise<void>; correlationId: number } {
  const correlationId = ++correlation;
  let markSent!: () => void;
  const sent = new Promise<void>((resolve) => (markSent = resolve));
  const entry = { correlationId, apiKey: 3, apiName: 'Metadata', apiVersion: 6, resolve: () => undefined, reject: () => undefined };
  return { pushed: { entry, expectResponse: true, sendRequest: markSent }, sent, correlationId };
}

describe('kafkajs request queue with the idle loop stopped', () => {
  beforeAll(() => stopIdleRequestQueueLoop());
  afterEach(() => jest.useRealTimers());

  const queue = (maxInFlightRequests: number): Queue =>
    new RequestQueue({ maxInFlightRequests, requestTimeout: 30_000, enforceRequestTimeout: false, clientId: 'test', broker: 'test:9092', logger });

  it('arms no timer once its requests are answered', async () => {
    const subject = queue(5);
    const { pushed, sent, correlationId } = request();
    subject.push(pushed);
    await sent;
    subject.fulfillRequest({ correlationId, payload: Buffer.alloc(0), size: 0 });
    expect(subject.pending).toHaveLength(0);
    expect(subject.throttleCheckTimeoutId).toBeNull();
  });

  it('sends a request held back by the broker once the throttle ends, then goes quiet', async () => {
    const subject = queue(5);
    subject.maybeThrottle(30);
    const { pushed, sent, correlationId } = request();
    subject.push(pushed);
    expect(subject.pending).toHaveLength(1);
    await sent;
    subject.fulfillRequest({ correlationId, payload: Buffer.alloc(0), size: 0 });
    expect(subject.throttleCheckTimeoutId).toBeNull();
  });

  it('sends a request held back by the in-flight limit as soon as the one before it is answered', async () => {
    // The queue's own timer, run by hand: that it fires once more and arms no other is then a fact, not a race.
    jest.useFakeTimers();
    const subject = queue(1);
    const first = request();
    const second = request();
    subject.push(first.pushed);
    subject.push(second.pushed);
    await first.sent;
    expect(subject.pending).toHaveLength(1);
    subject.fulfillRequest({ correlationId: first.correlationId, payload: Buffer.alloc(0), size: 0 });
    await second.sent;
    subject.fulfillRequest({ correlationId: second.correlationId, payload: Buffer.alloc(0), size: 0 });
    expect(subject.pending).toHaveLength(0);
    // The check armed while the second request waited fires once more, finds nothing and arms no other.
    expect(jest.getTimerCount()).toBe(1);
    jest.runOnlyPendingTimers();
    expect(subject.throttleCheckTimeoutId).toBeNull();
    expect(jest.getTimerCount()).toBe(0);
  });
});
