import { darken, formatCount, relativeTime } from './format';

describe('formats', () => {
  it('shows counts as 万 from 10,000 and k on cards from 1,000', () => {
    expect(formatCount(9999)).toBe('9999');
    expect(formatCount(10_000)).toBe('1万');
    expect(formatCount(12_345)).toBe('1.2万');
    expect(formatCount(1_500, true)).toBe('1.5k');
    expect(formatCount(undefined)).toBe('0');
  });

  it('shows relative times by the spec', () => {
    const now = new Date('2026-06-15T12:00:00');
    expect(relativeTime('2026-06-15T11:59:30', now)).toBe('刚刚');
    expect(relativeTime('2026-06-15T11:30:00', now)).toBe('30分钟前');
    expect(relativeTime('2026-06-15T02:00:00', now)).toBe('10小时前');
    expect(relativeTime('2026-06-12T12:00:00', now)).toBe('3天前');
    expect(relativeTime('2026-03-02T12:00:00', now)).toBe('03-02');
    expect(relativeTime('2025-03-02T12:00:00', now)).toBe('2025-03-02');
    expect(relativeTime('nonsense', now)).toBe('无效日期');
  });

  it('derives the darker theme shade, 10 percent darker', () => {
    expect(darken('#ff2442')).toBe('#e6203b');
  });
});
