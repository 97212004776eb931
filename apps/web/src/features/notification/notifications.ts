import type { NearEnd } from '../../hooks/useNearEnd';
import type { UnreadCounts } from '../../hooks/useSessionStart';

/** The page's next notifications load once the list's end has been within 100 px for 300 ms (public-side.md §9). */
export const NOTIFICATION_NEAR_END: NearEnd = { marginPx: 100, delayMs: 300 };

export type NotificationTab = 'comments' | 'likes' | 'collections' | 'follows';

/** The four tabs of /notification, in the spec's order (public-side.md §2). */
export const TABS: { key: NotificationTab; label: string }[] = [
  { key: 'comments', label: '评论和@' },
  { key: 'likes', label: '赞' },
  { key: 'collections', label: '收藏' },
  { key: 'follows', label: '新增关注' },
];

/** What the sender did, by notification type (public-side.md §3). */
export const ACTION_TEXT: Record<number, string> = {
  1: '赞了你的笔记',
  2: '赞了你的评论',
  3: '收藏了你的笔记',
  4: '评论了你的笔记',
  5: '回复了你的评论',
  6: '开始关注你了',
  7: '在评论中@了你',
  8: '在笔记中@了你',
};

/** The counts after one notification of a tab is read: that tab and the totals drop by one, never below zero. */
export function applyRead(counts: UnreadCounts, tab: NotificationTab): UnreadCounts {
  const drop = (value: number) => Math.max(0, value - 1);
  return { ...counts, [tab]: drop(counts[tab]), total: drop(counts.total), count: drop(counts.count) };
}

/** How many senders a group names before 等 N 人. */
const NAMED_ACTORS = 2;

/**
 * Who did it in a group, as Xiaohongshu says it: 林小雨 / 林小雨、陈默 / 林小雨、陈默等 12 人 (the newest first).
 * The action (赞了你的笔记, …) follows it.
 */
export function groupActors(names: string[], count: number): string {
  const named = names.slice(0, NAMED_ACTORS).join('、');
  return count > NAMED_ACTORS ? `${named}等 ${count} 人` : named;
}
