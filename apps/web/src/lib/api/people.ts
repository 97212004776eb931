import { queryOptions } from '@tanstack/react-query';
import { api, call } from './client';
import { sharedKeys } from './query-keys';

/** Keys of the people queries no single feature owns (all under `people`, refetched after a follow). */
export const peopleKeys = {
  followStatus: (userId: string, viewer: string | null) => [...sharedKeys.people, 'follow-status', userId, viewer] as const,
  card: (userId: string, viewer: string | null) => [...sharedKeys.people, 'card', userId, viewer] as const,
  mentionFriends: (viewer: string | undefined) => [...sharedKeys.people, 'mention-friends', viewer] as const,
  mentionSearch: (keyword: string) => [...sharedKeys.people, 'mention-search', keyword] as const,
};

/** Whom the viewer follows back and forth: the follow button's state towards one user. */
export function followStatusQuery(userId: string, viewer: string | null) {
  return queryOptions({
    queryKey: peopleKeys.followStatus(userId, viewer),
    queryFn: () => call(api.GET('/api/users/{user_id}/follow-status', { params: { path: { user_id: userId } } })),
  });
}

/** A user's hover card as the viewer sees it. */
export function userCardQuery(userId: string, viewer: string | null) {
  return queryOptions({
    queryKey: peopleKeys.card(userId, viewer),
    queryFn: () => call(api.GET('/api/users/{user_id}/card', { params: { path: { user_id: userId } } })),
  });
}
