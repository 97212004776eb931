import { applyRead, groupActors, NOTIFICATION_NEAR_END } from './notifications';

describe('applyRead', () => {
  it('drops the tab and the totals by one', () => {
    expect(applyRead({ comments: 2, likes: 1, collections: 0, follows: 0, total: 3, count: 3 }, 'comments')).toEqual({ comments: 1, likes: 1, collections: 0, follows: 0, total: 2, count: 2 });
  });
  it('never goes below zero', () => {
    expect(applyRead({ comments: 0, likes: 0, collections: 0, follows: 0, total: 0, count: 0 }, 'likes').likes).toBe(0);
  });
});

describe('the notifications page’s infinite scroll', () => {
  it('watches the list’s end with a 100 px margin and loads after 300 ms there (public-side.md §9)', () => {
    expect(NOTIFICATION_NEAR_END).toEqual({ marginPx: 100, delayMs: 300 });
  });
});

describe('groupActors', () => {
  it('names one or two senders, and two with the count from three on', () => {
    expect(groupActors(['林小雨'], 1)).toBe('林小雨');
    expect(groupActors(['林小雨', '陈默'], 2)).toBe('林小雨、陈默');
    expect(groupActors(['林小雨', '陈默', '王一'], 3)).toBe('林小雨、陈默等 3 人');
    expect(groupActors(['林小雨', '陈默', '王一'], 12)).toBe('林小雨、陈默等 12 人');
  });
});
