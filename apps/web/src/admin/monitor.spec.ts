import { activityLabel, activityLink, activityTime, counts, merge } from './monitor';

const now = new Date('2026-11-22T12:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();
const HOUR = 3_600_000;

describe('the activity monitor', () => {
  it('labels the three activity types and any other as unknown', () => {
    expect(['user_register', 'post_publish', 'comment_publish', 'x'].map(activityLabel)).toEqual(['用户注册', '发布笔记', '发表评论', '未知活动']);
  });
  it('tells the time relatively under a week, then as a date', () => {
    expect(activityTime(ago(30_000), now)).toBe('刚刚');
    expect(activityTime(ago(5 * 60_000), now)).toBe('5分钟前');
    expect(activityTime(ago(3 * HOUR), now)).toBe('3小时前');
    expect(activityTime(ago(2 * 24 * HOUR), now)).toBe('2天前');
    expect(activityTime(ago(10 * 24 * HOUR), now)).toBe(new Date(ago(10 * 24 * HOUR)).toLocaleDateString('zh-CN'));
  });
  it('opens the profile, the note, or the note at the comment', () => {
    expect(activityLink({ type: 'user_register', user_id: 'stu_1', target_id: 3, post_id: null })).toBe('/user/stu_1');
    expect(activityLink({ type: 'post_publish', user_id: 'stu_1', target_id: 9, post_id: 9 })).toBe('/post?id=9');
    expect(activityLink({ type: 'comment_publish', user_id: 'stu_1', target_id: 31, post_id: 9 })).toBe('/post?id=9&targetCommentId=31');
  });
  it('counts a type per hour over 24 hours and per day over 30 days, oldest first', () => {
    const items = [
      { type: 'user_register', created_at: ago(10 * 60_000) },
      { type: 'user_register', created_at: ago(50 * 60_000) },
      { type: 'user_register', created_at: ago(5 * HOUR + 1) },
      { type: 'user_register', created_at: ago(3 * 24 * HOUR + 1) },
      { type: 'user_register', created_at: ago(40 * 24 * HOUR) },
      { type: 'post_publish', created_at: ago(60_000) },
    ];
    const day = counts(items, 'user_register', 'day', now);
    expect(day).toHaveLength(24);
    expect(day[23]).toBe(2);
    expect(day[18]).toBe(1);
    expect(day.reduce((a, b) => a + b)).toBe(3);
    const month = counts(items, 'user_register', 'month', now);
    expect(month).toHaveLength(30);
    expect(month[29]).toBe(3);
    expect(month[26]).toBe(1);
    expect(month.reduce((a, b) => a + b)).toBe(4);
  });
  it('counts an activity newer than the clock in the latest bar', () => {
    const items = [{ type: 'user_register', created_at: new Date(now.getTime() + 20_000).toISOString() }];
    expect(counts(items, 'user_register', 'day', now)[23]).toBe(1);
    expect(counts(items, 'user_register', 'month', now)[29]).toBe(1);
  });
  it('merges the live page into the history once, newest first', () => {
    const base = { user_id: 'u', user_auto_id: 1, target_id: 1, post_id: null, avatar: '', nickname: 'n', description: '', content: '' };
    const older = { ...base, id: 1, type: 'user_register', created_at: ago(HOUR) };
    const newer = { ...base, id: 2, type: 'user_register', created_at: ago(1000) };
    const post = { ...base, id: 1, type: 'post_publish', created_at: ago(2 * HOUR) };
    expect(merge([older, post], [newer, older]).map((item) => `${item.type}:${item.id}`)).toEqual(['user_register:2', 'user_register:1', 'post_publish:1']);
  });
});
