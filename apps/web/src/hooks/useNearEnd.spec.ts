import { FEED_NEAR_END, nearEndTrigger } from './useNearEnd';

describe('infinite scroll', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('asks for a feed’s next page within 200 px of the bottom, after 200 ms there', () => {
    expect(FEED_NEAR_END).toEqual({ marginPx: 200, delayMs: 200 });
  });

  it('asks once the end has stayed in view for the delay', () => {
    const onEnd = jest.fn();
    const trigger = nearEndTrigger(onEnd, 200);
    trigger.seen(true);
    jest.advanceTimersByTime(100);
    trigger.seen(true);
    jest.advanceTimersByTime(99);
    expect(onEnd).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(onEnd).toHaveBeenCalledTimes(1);
  });

  it('asks nothing when the end only flashes past, or after it stops', () => {
    const onEnd = jest.fn();
    const trigger = nearEndTrigger(onEnd, 300);
    trigger.seen(true);
    jest.advanceTimersByTime(250);
    trigger.seen(false);
    jest.advanceTimersByTime(1000);
    trigger.seen(true);
    trigger.stop();
    jest.advanceTimersByTime(1000);
    expect(onEnd).not.toHaveBeenCalled();
  });
});
