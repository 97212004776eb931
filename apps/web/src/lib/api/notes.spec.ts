import { type InfiniteData, MutationObserver, QueryClient } from '@tanstack/react-query';
import { likeMutation } from '../../hooks/useLike';
import type { Note } from './client';
import { noteDetailKey, noteLikeView } from './notes';
import type { LikeTarget } from './reactions';

jest.mock('./reactions', () => ({ sendLike: jest.fn() }));
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { sendLike } = require('./reactions') as { sendLike: jest.Mock<Promise<{ active: boolean; count: number }>, [LikeTarget, boolean]> };

const note = { id: 7, liked: false, likeCount: 3, like_count: 3, collected: false, collectCount: 0, collect_count: 0 } as Note;

function setUp({ detail: withDetail = true } = {}) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  if (withDetail) client.setQueryData(noteDetailKey(7), note);
  client.setQueryData(['search', 'results', 'all', '秋天', ''], { pages: [{ posts: { data: [note] }, users: { data: [] } }], pageParams: [1] });
  client.setQueryData<InfiniteData<{ posts: Note[] }>>(['feed', { kind: 'explore' }], { pages: [{ posts: [note, { ...note, id: 8 }] }], pageParams: [1] });
  const outcome: string[] = [];
  const observer = new MutationObserver(
    client,
    likeMutation(client, { view: noteLikeView(client), targetOf: (id: number) => ({ target_type: 1, target_id: id }), onDone: () => outcome.push('done'), onFailed: () => outcome.push('failed') }),
  );
  const detail = () => client.getQueryData<Note>(noteDetailKey(7));
  const inFeed = () => client.getQueryData<InfiniteData<{ posts: Note[] }>>(['feed', { kind: 'explore' }])?.pages[0]?.posts[0];
  const inSearch = () => client.getQueryData<InfiniteData<{ posts: { data: Note[] } }>>(['search', 'results', 'all', '秋天', ''])?.pages[0]?.posts.data[0];
  return { client, observer, outcome, detail, inFeed, inSearch };
}

/** Lets the mutation's onMutate run (it awaits the cancelling of the note's query first). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the like mutation', () => {
  beforeEach(() => sendLike.mockReset());

  it('shows the like at once, then rolls the cache back when the request fails', async () => {
    let fail: (error: Error) => void = () => undefined;
    sendLike.mockImplementation(() => new Promise((_resolve, reject) => (fail = reject)));
    const { observer, outcome, detail, inFeed } = setUp();

    const done = observer.mutate({ target: 7, active: true }).catch((error: Error) => error.message);
    await settle();
    expect(sendLike).toHaveBeenCalledWith({ target_type: 1, target_id: 7 }, true);
    expect(detail()).toMatchObject({ liked: true, likeCount: 4, like_count: 4 });
    expect(inFeed()).toMatchObject({ liked: true, likeCount: 4 });

    fail(new Error('操作失败'));
    await expect(done).resolves.toBe('操作失败');
    expect(detail()).toEqual(note);
    expect(inFeed()).toEqual(note);
    expect(outcome).toEqual(['failed']);
  });

  it('settles on the count the server answers', async () => {
    sendLike.mockResolvedValue({ active: true, count: 10 });
    const { observer, outcome, detail } = setUp();
    await observer.mutate({ target: 7, active: true });
    expect(detail()).toMatchObject({ liked: true, likeCount: 10, like_count: 10 });
    expect(outcome).toEqual(['done']);
  });

  it('unlikes without going below zero, and restores the like when that fails', async () => {
    sendLike.mockRejectedValue(new Error('网络连接失败'));
    const { client, observer, detail } = setUp();
    client.setQueryData<Note>(noteDetailKey(7), { ...note, liked: true, likeCount: 0, like_count: 0 });
    const done = observer.mutate({ target: 7, active: false }).catch(() => undefined);
    await done;
    expect(sendLike).toHaveBeenCalledWith({ target_type: 1, target_id: 7 }, false);
    expect(detail()).toMatchObject({ liked: true, likeCount: 0 });
  });

  it('likes from a card whose note has no detail loaded, in every feed and search result that shows it', async () => {
    let fail: (error: Error) => void = () => undefined;
    sendLike.mockImplementation(() => new Promise((_resolve, reject) => (fail = reject)));
    const { observer, detail, inFeed, inSearch } = setUp({ detail: false });

    const done = observer.mutate({ target: 7, active: true }).catch(() => undefined);
    await settle();
    expect(detail()).toBeUndefined();
    expect(inFeed()).toMatchObject({ liked: true, likeCount: 4, like_count: 4 });
    expect(inSearch()).toMatchObject({ liked: true, likeCount: 4, like_count: 4 });

    fail(new Error('操作失败'));
    await done;
    expect(inFeed()).toEqual(note);
    expect(inSearch()).toEqual(note);
  });

  it('reaches a feed that is one list, as a note’s related notes are', async () => {
    sendLike.mockResolvedValue({ active: true, count: 4 });
    const { client, observer } = setUp({ detail: false });
    client.setQueryData(['feed', { kind: 'related', id: 1 }], { posts: [{ ...note, id: 9 }, note] });
    await observer.mutate({ target: 7, active: true });
    expect(client.getQueryData<{ posts: Note[] }>(['feed', { kind: 'related', id: 1 }])?.posts.map((each) => [each.id, each.liked, each.likeCount])).toEqual([
      [9, false, 3],
      [7, true, 4],
    ]);
  });
});
