import { type InfiniteData, infiniteQueryOptions, type QueryClient, queryOptions } from '@tanstack/react-query';
import { api, call } from '../../../lib/api/client';
import { sharedKeys } from '../../../lib/api/query-keys';
import type { components } from '../../../lib/api/schema';
import type { ToggleView } from '../../../lib/toggle';
import type { NotificationTab } from '../notifications';

export type Notification = components['schemas']['NotificationView'];
export type NotificationPage = components['schemas']['NotificationPage'];
export type NotificationGroup = components['schemas']['NotificationGroupView'];
export type NotificationGroupPage = components['schemas']['NotificationGroupPage'];
/** The tabs shown grouped by note (or comment) and day. */
export type GroupedTab = 'likes' | 'collections';

/** Notifications page size (public-side.md §9). */
const LIMIT = 20;

/** The notification feature's query keys. */
export const notificationKeys = {
  all: sharedKeys.notifications,
  list: (tab: NotificationTab) => [...sharedKeys.notifications, 'list', tab] as const,
  groups: (tab: GroupedTab) => [...sharedKeys.notifications, 'groups', tab] as const,
  unread: sharedKeys.unread,
  followStatuses: (ids: string[]) => [...sharedKeys.people, 'follow-statuses', ids] as const,
};

/** One tab's notifications, page by page. */
export function notificationListQuery(tab: NotificationTab) {
  return infiniteQueryOptions({
    queryKey: notificationKeys.list(tab),
    initialPageParam: 1,
    queryFn: async ({ pageParam }) => ungrouped(await call(api.GET(`/api/notifications/${tab}`, { params: { query: { page: pageParam, limit: LIMIT } } }))),
    getNextPageParam: (last) => (last.pagination.page < last.pagination.pages ? last.pagination.page + 1 : undefined),
  });
}

/** The call answers one shape or the other by `group`; these read the shape asked for. */
function ungrouped(page: NotificationPage | NotificationGroupPage): NotificationPage {
  if (!('notifications' in page)) throw new Error('expected a page of notifications');
  return page;
}

function grouped(page: NotificationPage | NotificationGroupPage): NotificationGroupPage {
  if (!('groups' in page)) throw new Error('expected a page of groups');
  return page;
}

/** The likes or collections tab, one item per note (or comment) and day, page by page. */
export function notificationGroupsQuery(tab: GroupedTab) {
  return infiniteQueryOptions({
    queryKey: notificationKeys.groups(tab),
    initialPageParam: 1,
    queryFn: async ({ pageParam }) =>
      grouped(await call(api.GET(`/api/notifications/${tab}`, { params: { query: { page: pageParam, limit: LIMIT, group: 'target' } } }))),
    getNextPageParam: (last) => (last.pagination.page < last.pagination.pages ? last.pagination.page + 1 : undefined),
  });
}

/** Whether the viewer follows each of these users (the follows tab's 回关 / 互相关注). */
export function followStatusesQuery(ids: string[]) {
  return queryOptions({
    queryKey: notificationKeys.followStatuses(ids),
    enabled: ids.length > 0,
    queryFn: () => call(api.GET('/api/users/follow-status', { params: { query: { ids } } })),
  });
}

/** The unread counts per tab. */
export function unreadQuery(enabled: boolean) {
  return queryOptions({ queryKey: notificationKeys.unread, enabled, queryFn: () => call(api.GET('/api/notifications/unread-count-by-type')) });
}

export function markRead(id: number) {
  return call(api.PUT('/api/notifications/{id}/read', { params: { path: { id } } }));
}

/** Marks every notification of a group read; answers the unread counts after. */
export function markGroupRead(group: NotificationGroup) {
  return call(api.PUT('/api/notifications/groups/read', { body: { type: group.type as 1 | 2 | 3, target_id: group.target_id, day: group.day } }));
}

export function markAllRead() {
  return call(api.PUT('/api/notifications/read-all', { params: { query: {} } }));
}

/** Replies to the comment a notification is about (or comments on its note). */
export function replyTo(item: Notification, content: string) {
  return call(api.POST('/api/comments', { body: { post_id: item.post_id as number, content, ...(item.comment_id ? { parent_id: item.comment_id } : {}) } }));
}

/** Changes every loaded notification of a tab. */
export function patchList(client: QueryClient, tab: NotificationTab, change: (item: Notification) => Notification): void {
  client.setQueryData<InfiniteData<NotificationPage>>(notificationKeys.list(tab), (data) =>
    data && { ...data, pages: data.pages.map((page) => ({ ...page, notifications: page.notifications.map(change) })) },
  );
}

/** Changes every loaded group of a grouped tab. */
export function patchGroups(client: QueryClient, tab: GroupedTab, change: (group: NotificationGroup) => NotificationGroup): void {
  client.setQueryData<InfiniteData<NotificationGroupPage>>(notificationKeys.groups(tab), (data) =>
    data && { ...data, pages: data.pages.map((page) => ({ ...page, groups: page.groups.map(change) })) },
  );
}

/** Replaces one notification in every loaded page of a tab. */
export function patchItem(client: QueryClient, tab: NotificationTab, id: number, patch: Partial<Notification>): void {
  patchList(client, tab, (item) => (item.id === id ? { ...item, ...patch } : item));
}

/** The like of the comment a notification shows, as the tab's cache holds it. */
export function notificationCommentLikeView(client: QueryClient, tab: NotificationTab): ToggleView<Notification> {
  const find = (id: number) =>
    client
      .getQueryData<InfiniteData<NotificationPage>>(notificationKeys.list(tab))
      ?.pages.flatMap((page) => page.notifications)
      .find((item) => item.id === id);
  return {
    read: (target) => {
      const item = find(target.id) ?? target;
      return { active: item.comment_is_liked, count: item.comment_like_count };
    },
    write: (target, state) => patchItem(client, tab, target.id, { comment_is_liked: state.active, comment_like_count: state.count }),
  };
}
