import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { api, call, failingAs, type Note } from '../../../lib/api/client';
import { noteDetailKey, patchNote } from '../../../lib/api/notes';
import { sharedKeys } from '../../../lib/api/query-keys';
import type { ToggleView } from '../../../lib/toggle';

/** The note feature's query keys. */
export const noteKeys = {
  all: sharedKeys.note,
  detail: noteDetailKey,
};

/** A note counts one view per hour: a cookie marks it as viewed (public-side.md §4). */
function viewedRecently(id: number): boolean {
  const name = `viewed_${id}=`;
  const seen = document.cookie.split('; ').some((entry) => entry.startsWith(name));
  if (!seen) document.cookie = `${name}1; max-age=3600; path=/; samesite=lax`;
  return seen;
}

/** One note's detail; a server error says 获取笔记失败. */
export function noteQuery(id: number | null) {
  return queryOptions({
    queryKey: noteKeys.detail(id),
    enabled: id !== null,
    queryFn: async () => (await failingAs(call(api.GET('/api/posts/{id}', { params: { path: { id: id! }, query: viewedRecently(id!) ? { skipViewCount: true } : {} } })), '获取笔记失败')) as Note,
  });
}

/** The notes related to a note, as feed cards: a feed (sharedKeys.feeds), so a like from any card reaches it. */
export function relatedQuery(id: number) {
  return queryOptions({
    queryKey: [...sharedKeys.feeds, { kind: 'related', id }] as const,
    queryFn: () => call(api.GET('/api/posts/{id}/related', { params: { path: { id }, query: {} } })),
  });
}

/** A note's collect as the cache holds it (the note's id is the target). */
export function noteCollectView(client: QueryClient): ToggleView<number> {
  return {
    read: (id) => {
      const note = client.getQueryData<Note>(noteKeys.detail(id));
      return note && { active: note.collected, count: note.collectCount ?? note.collect_count };
    },
    write: (id, state) => patchNote(client, id, { collected: state.active, collectCount: state.count, collect_count: state.count }),
    queryKeys: (id) => [noteKeys.detail(id)],
  };
}
