import { queryOptions } from '@tanstack/react-query';
import { api, call } from '../../../lib/api/client';
import { sharedKeys } from '../../../lib/api/query-keys';

/** How many people the 关注 feed's empty state suggests. */
export const SUGGESTIONS_SHOWN = 8;

/** People to follow, under `people` so that a follow refreshes them. */
export function suggestionsQuery() {
  return queryOptions({
    queryKey: [...sharedKeys.people, 'suggestions'] as const,
    queryFn: () => call(api.GET('/api/users/suggestions', { params: { query: { limit: SUGGESTIONS_SHOWN } } })),
  });
}
