import { NOTIFICATIONS_TOAST_MS, TOAST_MS, toast, useToasts } from './toast';

describe('toasts (public-side.md §9: 2000 ms, 3 s on the notifications page)', () => {
  beforeEach(() => {
    jest.useFakeTimers();
    useToasts.setState({ toasts: [], duration: TOAST_MS });
  });

  afterEach(() => {
    jest.useRealTimers();
  });

  const shown = () => useToasts.getState().toasts.map((each) => each.text);

  it('shows a toast for 2000 ms', () => {
    toast.success('已关注');
    jest.advanceTimersByTime(1999);
    expect(shown()).toEqual(['已关注']);
    jest.advanceTimersByTime(1);
    expect(shown()).toEqual([]);
  });

  it('shows one for 3 s while the notifications page holds the longer duration', () => {
    useToasts.setState({ duration: NOTIFICATIONS_TOAST_MS });
    toast.error('操作失败，请稍后重试');
    jest.advanceTimersByTime(2999);
    expect(shown()).toEqual(['操作失败，请稍后重试']);
    jest.advanceTimersByTime(1);
    expect(shown()).toEqual([]);
  });
});
