import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { ToggleView } from '../toggle';
import type { Note } from './client';
import { sharedKeys } from './query-keys';
import type { components } from './schema';

type SearchPost = components['schemas']['SearchPostView'];
/** A feed is paged (explore, profiles) or one list (a note's related notes). */
type FeedData = InfiniteData<{ posts: Note[] }> | { posts: Note[] };
type SearchData = InfiniteData<{ posts?: { data: SearchPost[] } }>;
/** What a like or collect changes on a note, in both spellings the answers carry. */
type NoteChange = Partial<Pick<Note, 'liked' | 'likeCount' | 'like_count' | 'collected' | 'collectCount' | 'collect_count'>>;

/** One note's detail query key. */
export const noteDetailKey = (id: number | null) => [...sharedKeys.note, id] as const;

/** Writes a change of a note into its detail, every feed and every search result that shows it. */
export function patchNote(client: QueryClient, id: number, change: NoteChange): void {
  client.setQueryData<Note>(noteDetailKey(id), (before) => (before ? { ...before, ...change } : before));
  const patched = (notes: Note[]) => notes.map((note) => (note.id === id ? { ...note, ...change } : note));
  client.setQueriesData<FeedData>({ queryKey: sharedKeys.feeds }, (before) => {
    if (!before) return before;
    return 'pages' in before ? { ...before, pages: before.pages.map((page) => ({ ...page, posts: patched(page.posts) })) } : { ...before, posts: patched(before.posts) };
  });
  client.setQueriesData<SearchData>({ queryKey: sharedKeys.search }, (before) =>
    before?.pages
      ? { ...before, pages: before.pages.map((page) => (page.posts ? { ...page, posts: { ...page.posts, data: page.posts.data.map((post) => (post.id === id ? { ...post, ...change } : post)) } } : page)) }
      : before,
  );
}

/** The note as the cache shows it: its detail when loaded, otherwise the first feed or search result that holds it. */
function shownNote(client: QueryClient, id: number): Pick<Note, 'liked' | 'likeCount' | 'like_count'> | undefined {
  const detail = client.getQueryData<Note>(noteDetailKey(id));
  if (detail) return detail;
  for (const [, data] of client.getQueriesData<FeedData>({ queryKey: sharedKeys.feeds })) {
    const notes = !data ? [] : 'pages' in data ? data.pages.flatMap((page) => page.posts) : data.posts;
    const found = notes.find((note) => note.id === id);
    if (found) return found;
  }
  for (const [, data] of client.getQueriesData<SearchData>({ queryKey: sharedKeys.search })) {
    const found = data?.pages?.flatMap((page) => page.posts?.data ?? []).find((post) => post.id === id);
    if (found) return found;
  }
  return undefined;
}

/** A note's like as the cache holds it (the note's id is the target), for the detail and every card alike. */
export function noteLikeView(client: QueryClient): ToggleView<number> {
  return {
    read: (id) => {
      const note = shownNote(client, id);
      return note && { active: note.liked, count: note.likeCount ?? note.like_count };
    },
    write: (id, state) => patchNote(client, id, { liked: state.active, likeCount: state.count, like_count: state.count }),
    queryKeys: (id) => [noteDetailKey(id)],
  };
}
