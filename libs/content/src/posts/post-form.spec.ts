import { BadRequestException } from '@nestjs/common';
import { normaliseTags, snapshotOf } from './post.service';

describe('normaliseTags', () => {
  it('trims, drops empty ones and keeps the first of duplicates in any case', () => {
    expect(normaliseTags([' 学习 ', '', 'OOTD', 'ootd', '学习', '<b>考研</b>'])).toEqual(['学习', 'OOTD', '考研']);
  });

  it('refuses more than 10 tags and tags over 8 characters', () => {
    expect(() => normaliseTags(Array.from({ length: 11 }, (_, i) => `t${i}`))).toThrow(new BadRequestException('最多只能选择10个标签'));
    expect(() => normaliseTags(['一二三四五六七八九'])).toThrow(new BadRequestException('标签不能超过8个字符'));
    expect(normaliseTags(Array.from({ length: 12 }, () => '同一个'))).toEqual(['同一个']);
  });
});

describe('snapshotOf', () => {
  afterEach(() => jest.useRealTimers());

  it('reads ISO time and epoch milliseconds, and defaults to now', () => {
    expect(snapshotOf('2026-01-02T03:04:05.678Z').toISOString()).toBe('2026-01-02T03:04:05.678Z');
    expect(snapshotOf('1767323045678').toISOString()).toBe('2026-01-02T03:04:05.678Z');
    jest.useFakeTimers({ now: new Date('2026-03-04T05:06:07.890Z') });
    expect(snapshotOf(undefined).toISOString()).toBe('2026-03-04T05:06:07.890Z');
  });

  it('refuses anything else', () => {
    expect(() => snapshotOf('yesterday')).toThrow(new BadRequestException('snapshot 格式不正确'));
  });
});
