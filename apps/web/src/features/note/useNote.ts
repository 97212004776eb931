import { useQuery } from '@tanstack/react-query';
import { api, call, type Note } from '../../lib/api/client';

/** A note counts one view per hour: a cookie marks it as viewed (public-side.md §4). */
function viewedRecently(id: number): boolean {
  const name = `viewed_${id}=`;
  const seen = document.cookie.split('; ').some((entry) => entry.startsWith(name));
  if (!seen) document.cookie = `${name}1; max-age=3600; path=/; samesite=lax`;
  return seen;
}

/** One note's detail; a failed or missing load is an error the page turns into not-found. */
export function useNote(id: number | null) {
  return useQuery({
    queryKey: ['note', id],
    enabled: id !== null,
    queryFn: async () => (await call(api.GET('/api/posts/{id}', { params: { path: { id: id! }, query: viewedRecently(id!) ? { skipViewCount: true } : {} } }))) as Note,
  });
}

/** The id in /post?id=…, or null when missing or not a positive number. */
export function noteIdFrom(params: URLSearchParams, key = 'id'): number | null {
  const value = Number(params.get(key));
  return Number.isInteger(value) && value > 0 ? value : null;
}
