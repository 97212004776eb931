import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api, call, type Note } from '../lib/api/client';
import { sharedKeys } from '../lib/api/query-keys';
import { takeFirstFeed } from '../lib/first-feed';

/** Feed page size (public-side.md §9). */
export const FEED_LIMIT = 20;

export type FeedSource = { kind: 'explore'; category: string | null; imageOnly: boolean } | { kind: 'posts' | 'collections' | 'likes'; userId: string };

interface FeedPage {
  posts: Note[];
  page: number;
  pages: number;
  snapshot?: string;
}

async function loadPage(source: FeedSource, page: number, snapshot: string | undefined): Promise<FeedPage> {
  if (source.kind === 'explore') {
    const early = !source.category && !source.imageOnly && page === 1 && !snapshot ? await takeFirstFeed(FEED_LIMIT) : null;
    const answer =
      early ??
      (await call(
        api.GET('/api/posts', { params: { query: { page, limit: FEED_LIMIT, ...(source.category ? { category: source.category } : {}), ...(source.imageOnly ? { type: 1 as const } : {}), ...(snapshot ? { snapshot } : {}) } } }),
      ));
    return { posts: answer.posts, page: answer.pagination.page, pages: answer.pagination.pages, snapshot: answer.pagination.snapshot };
  }
  const path = { user_id: source.userId };
  const query = { page, limit: FEED_LIMIT };
  if (source.kind === 'posts') {
    const answer = await call(api.GET('/api/users/{user_id}/posts', { params: { path, query } }));
    return { posts: answer.posts, page: answer.pagination.page, pages: answer.pagination.pages };
  }
  if (source.kind === 'collections') {
    const answer = await call(api.GET('/api/users/{user_id}/collections', { params: { path, query } }));
    return { posts: answer.collections, page: answer.pagination.page, pages: answer.pagination.pages };
  }
  const answer = await call(api.GET('/api/users/{user_id}/likes', { params: { path, query } }));
  return { posts: answer.posts, page: answer.pagination.page, pages: answer.pagination.pages };
}

/** A feed's query key; every explore feed (any channel) starts with `exploreFeedKey`. */
export const feedKey = (source: FeedSource) => [...sharedKeys.feeds, source] as const;
export const exploreFeedKey = [...sharedKeys.feeds, { kind: 'explore' }] as const;

/** One feed, page by page (hasMore while page < pages); the explore feed pins its snapshot so pages do not shift. */
export function feedQuery(source: FeedSource) {
  return infiniteQueryOptions({
    queryKey: feedKey(source),
    initialPageParam: { page: 1, snapshot: undefined as string | undefined },
    queryFn: ({ pageParam }) => loadPage(source, pageParam.page, pageParam.snapshot),
    getNextPageParam: (last) => (last.page < last.pages ? { page: last.page + 1, snapshot: last.snapshot } : undefined),
  });
}

/** One feed, page by page (hasMore while page < pages); the explore feed pins its snapshot so pages do not shift. */
export function useFeed(source: FeedSource) {
  const query = useInfiniteQuery(feedQuery(source));
  const notes = useMemo(() => {
    const seen = new Set<number>();
    return (query.data?.pages ?? []).flatMap((page) => page.posts).filter((note) => !seen.has(note.id) && seen.add(note.id));
  }, [query.data]);
  return { ...query, notes };
}
