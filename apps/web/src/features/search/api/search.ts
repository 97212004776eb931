import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { api, call } from '../../../lib/api/client';
import { sharedKeys } from '../../../lib/api/query-keys';

export type SearchTab = 'all' | 'post' | 'video' | 'user';

/** Search page size (public-side.md §7). */
const LIMIT = 20;

/** The search feature's query keys. */
export const searchKeys = {
  all: sharedKeys.search,
  suggest: (keyword: string) => [...sharedKeys.search, 'suggest', keyword] as const,
  results: (tab: SearchTab, keyword: string, tag: string) => [...sharedKeys.search, 'results', tab, keyword, tag] as const,
};

/** Live suggestions for what is being typed. */
export function suggestQuery(keyword: string) {
  return queryOptions({
    queryKey: searchKeys.suggest(keyword),
    staleTime: 60_000,
    queryFn: () => call(api.GET('/api/search/suggest', { params: { query: { keyword } } })),
  });
}

/** The results of one tab, page by page (the users tab pages its users, the others their notes). */
export function searchResultsQuery(tab: SearchTab, keyword: string, tag: string) {
  return infiniteQueryOptions({
    queryKey: searchKeys.results(tab, keyword, tag),
    initialPageParam: 1,
    queryFn: ({ pageParam }) => call(api.GET('/api/search', { params: { query: { type: tab, page: pageParam, limit: LIMIT, ...(keyword ? { keyword } : {}), ...(tag ? { tag } : {}) } } })),
    getNextPageParam: (last) => {
      const pagination = tab === 'user' ? last.users.pagination : last.posts.pagination;
      return pagination.page < pagination.pages ? pagination.page + 1 : undefined;
    },
  });
}
