import { createImageQueue, LAZY_IMAGES } from './image-queue';

describe('the lazy images’ queue', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('follows the spec: 4 at once, 100 px ahead, 5 s timeout (3 s in the back office), 15 s recheck, stuck check every 5 s past 10 s', () => {
    expect(LAZY_IMAGES).toEqual({ concurrent: 4, marginPx: 100, timeoutMs: 5000, adminTimeoutMs: 3000, recheckMs: 15_000, stuckCheckMs: 5000, stuckAfterMs: 10_000 });
  });

  it('starts at most 4 loads and the next waiting one as each ends', () => {
    const queue = createImageQueue(LAZY_IMAGES);
    const started: number[] = [];
    const releases = [1, 2, 3, 4, 5, 6].map((image) => queue.request(() => started.push(image)));
    expect(started).toEqual([1, 2, 3, 4]);
    expect(queue.waiting).toBe(2);
    releases[1]();
    expect(started).toEqual([1, 2, 3, 4, 5]);
    releases[1]();
    expect(started).toEqual([1, 2, 3, 4, 5]);
    releases[5]();
    releases[0]();
    expect(started).toEqual([1, 2, 3, 4, 5]);
    expect(queue.loading).toBe(3);
    expect(queue.waiting).toBe(0);
  });

  it('takes back, at the 5 s check, a slot held for more than 10 s', () => {
    let clock = 0;
    const queue = createImageQueue(LAZY_IMAGES, () => clock);
    const started: number[] = [];
    [1, 2, 3, 4, 5].forEach((image) => queue.request(() => started.push(image)));
    clock = 10_000;
    jest.advanceTimersByTime(10_000);
    expect(started).toEqual([1, 2, 3, 4]);
    clock = 15_000;
    jest.advanceTimersByTime(5000);
    expect(started).toEqual([1, 2, 3, 4, 5]);
    expect(queue.loading).toBe(1);
  });
});
