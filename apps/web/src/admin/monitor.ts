import type { components } from '../lib/api/schema';

export type Activity = components['schemas']['ActivityItem'];

/** §2.6 type labels. */
export function activityLabel(type: string): string {
  return ({ user_register: '用户注册', post_publish: '发布笔记', comment_publish: '发表评论' } as Record<string, string>)[type] ?? '未知活动';
}

/** §2.6 relative time: 刚刚 under a minute, minutes under an hour, hours under a day, days under a week, then the date. */
export function activityTime(iso: string, now: Date = new Date()): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '-';
  const seconds = Math.max(0, (now.getTime() - at.getTime()) / 1000);
  if (seconds < 60) return '刚刚';
  if (seconds < 3600) return `${Math.floor(seconds / 60)}分钟前`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}小时前`;
  if (seconds < 7 * 86_400) return `${Math.floor(seconds / 86_400)}天前`;
  return at.toLocaleDateString('zh-CN');
}

/** Where a click on an activity opens (§2.6): the profile, the note, or the note at the comment. */
export function activityLink(item: Pick<Activity, 'type' | 'user_id' | 'target_id' | 'post_id'>): string | null {
  if (item.type === 'user_register') return `/user/${encodeURIComponent(item.user_id)}`;
  if (item.type === 'post_publish') return `/post?id=${item.target_id}`;
  if (item.type === 'comment_publish' && item.post_id) return `/post?id=${item.post_id}&targetCommentId=${item.target_id}`;
  return null;
}

export type Span = 'day' | 'month';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The charts' windows: 24 hourly bars, 30 daily bars. */
export const SPANS: Record<Span, { bars: number; width: number }> = { day: { bars: 24, width: HOUR }, month: { bars: 30, width: DAY } };

/**
 * How many activities of a type fall in each bar of a window ending now, oldest bar first. One newer than `now` (the
 * page's clock moves every 30 s, the list every 3 s, and the server's clock may run ahead) is in the latest bar.
 */
export function counts(items: Pick<Activity, 'type' | 'created_at'>[], type: string, span: Span, now: Date = new Date()): number[] {
  const { bars, width } = SPANS[span];
  const result = new Array<number>(bars).fill(0);
  for (const item of items) {
    if (item.type !== type) continue;
    const bar = Math.floor(Math.max(0, now.getTime() - new Date(item.created_at).getTime()) / width);
    if (bar < bars) result[bars - 1 - bar] += 1;
  }
  return result;
}

/** The activities of both reads, each once, newest first. */
export function merge(...lists: Activity[][]): Activity[] {
  const seen = new Map<string, Activity>();
  for (const item of lists.flat()) seen.set(`${item.type}:${item.id}`, item);
  return [...seen.values()].sort((a, b) => b.created_at.localeCompare(a.created_at));
}
