import { queryOptions } from '@tanstack/react-query';
import { api, call, type FollowListItem, type ProfileUpdate } from '../../../lib/api/client';
import { sharedKeys } from '../../../lib/api/query-keys';

export type FollowListType = 'mutual' | 'following' | 'followers';

/** The user feature's query keys (all under `people`, refetched after a follow). */
export const userKeys = {
  all: sharedKeys.people,
  user: (userId: string) => [...sharedKeys.people, 'user', userId] as const,
  stats: (userId: string) => [...sharedKeys.people, 'stats', userId] as const,
  follows: (type: FollowListType, userId: string) => [...sharedKeys.people, 'follows', type, userId] as const,
};

export function userQuery(userId: string) {
  return queryOptions({ queryKey: userKeys.user(userId), queryFn: () => call(api.GET('/api/users/{user_id}', { params: { path: { user_id: userId } } })) });
}

export function userStatsQuery(userId: string) {
  return queryOptions({ queryKey: userKeys.stats(userId), queryFn: () => call(api.GET('/api/users/{user_id}/stats', { params: { path: { user_id: userId } } })) });
}

async function loadFollows(type: FollowListType, userId: string): Promise<FollowListItem[]> {
  const params = { params: { path: { user_id: userId }, query: { page: 1, limit: 100 } } };
  if (type === 'mutual') return (await call(api.GET('/api/users/{user_id}/mutual-follows', params))).mutualFollows;
  if (type === 'following') return (await call(api.GET('/api/users/{user_id}/following', params))).following;
  return (await call(api.GET('/api/users/{user_id}/followers', params))).followers;
}

/** One's mutual follows, following or followers. */
export function followListQuery(type: FollowListType, userId: string) {
  return queryOptions({ queryKey: userKeys.follows(type, userId), queryFn: () => loadFollows(type, userId) });
}

export function updateProfile(userId: string, body: ProfileUpdate) {
  return call(api.PUT('/api/users/{user_id}', { params: { path: { user_id: userId } }, body }));
}
