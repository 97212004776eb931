import { CHANNEL_LOCK_MS, createChannelSwitcher } from './channel-switch';

describe('the channel switch', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  function setup() {
    let current = 'recommend';
    const applied: string[] = [];
    const switcher = createChannelSwitcher(
      (channel) => {
        applied.push(channel);
        current = channel;
      },
      () => current,
    );
    return { switcher, applied };
  }

  it('applies a pick at once and locks for 1200 ms', () => {
    const { switcher, applied } = setup();
    switcher.pick('food');
    expect(applied).toEqual(['food']);
    expect(switcher.locked).toBe(true);
    jest.advanceTimersByTime(CHANNEL_LOCK_MS);
    expect(switcher.locked).toBe(false);
  });

  it('queues picks made while locked, keeps only the latest and replays it when the lock ends', () => {
    const { switcher, applied } = setup();
    switcher.pick('food');
    switcher.pick('travel');
    switcher.pick('study');
    expect(applied).toEqual(['food']);
    expect(switcher.queued).toBe('study');
    jest.advanceTimersByTime(CHANNEL_LOCK_MS - 1);
    expect(applied).toEqual(['food']);
    jest.advanceTimersByTime(1);
    expect(applied).toEqual(['food', 'study']);
    expect(switcher.locked).toBe(true);
    jest.advanceTimersByTime(CHANNEL_LOCK_MS);
    expect(applied).toEqual(['food', 'study']);
  });

  it('drops a queued pick of the channel already shown, and ignores picking the current channel', () => {
    const { switcher, applied } = setup();
    switcher.pick('recommend');
    expect(applied).toEqual([]);
    switcher.pick('food');
    switcher.pick('food');
    jest.advanceTimersByTime(CHANNEL_LOCK_MS);
    expect(applied).toEqual(['food']);
    expect(switcher.locked).toBe(false);
  });
});
