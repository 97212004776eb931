import { Client } from '@elastic/elasticsearch';
import { postDeleted, postLiked, postUpdated, type PostSnapshot } from '@shiliu/contracts';
import { requireEnv, waitFor } from '@shiliu/platform/testing';
import { CHANGE_SHOWS_MS } from '../src/engine/cached-engine';
import { SearchTestApp, type TestUser } from './search-test-app';

interface Found {
  posts: { data: { id: number; title: string; like_count: number }[]; pagination: { total: number } };
  users: { id: number }[];
}

/**
 * Elasticsearch's answers kept as deployed (written at its refresh, not on each write), for a minute while nothing
 * changes: every change to what a note or user is found by still shows within moments, because it is announced to
 * the service's kept answers, and a card's counts are read again every second.
 */
describe('kept search answers and the changes that end them', () => {
  let app: SearchTestApp;
  let author: TestUser;
  let first: PostSnapshot;
  const client = new Client({ node: requireEnv('ELASTICSEARCH_URL') });

  const search = async (): Promise<Found> => (await app.call<Found>('GET', `/api/search?type=all&keyword=${encodeURIComponent('野餐')}`)).body.data;
  const titles = (found: Found): string[] => found.posts.data.map((card) => card.title).sort();

  beforeAll(async () => {
    app = await SearchTestApp.start('elasticsearch', { SEARCH_REFRESH_ON_WRITE: 'false', SEARCH_CACHE_MS: '60000' });
    author = await app.user({ nickname: '作者' });
    first = await app.publish(author, { title: '野餐第一篇' });
    await waitFor('the first note to be searchable', async () => titles(await search()).length === 1, 15_000, 100);
  });

  afterAll(async () => {
    await client.close();
    await app?.close();
  });

  it('keeps an answer while nothing is announced, and drops it for a note published, liked, edited or deleted', async () => {
    // Once the first note's change has surely shown, an answer is kept the whole minute.
    await new Promise((resolve) => setTimeout(resolve, CHANGE_SHOWS_MS));
    const kept = await search();
    expect(kept.posts.pagination.total).toBe(1);
    // A document written behind the service's back (no event, so no announcement) does not reach the kept answer.
    await client.index({ index: `${app.prefix}-posts`, id: '999999', document: { id: 999999, title: '野餐幽灵', content: '', tags: [], type: 1, like_count: 0, created_at: new Date().toISOString() }, refresh: true });
    expect((await search()).posts.pagination.total).toBe(1);

    const second = await app.publish(author, { title: '野餐第二篇' });
    const published = await waitFor('the published note to be found', async () => {
      const found = await search();
      return titles(found).length === 2 && found;
    }, 15_000, 100);
    expect(titles(published)).toEqual(['野餐第一篇', '野餐第二篇']);
    // The answer was asked again: the document nobody announced is counted now too (the read model has no card for it).
    expect(published.posts.pagination.total).toBe(3);

    await app.deliver(postLiked.type, { post_id: second.id, post_author_id: author.id, user_id: author.id, count: 1 });
    await waitFor('the like to show on the card', async () => (await search()).posts.data.find((card) => card.id === second.id)?.like_count === 1, 15_000, 100);

    await app.deliver(postUpdated.type, { post: { ...first, title: '操场夜跑' } });
    await waitFor('the edited note to be gone', async () => titles(await search()).join() === '野餐第二篇', 15_000, 100);

    await app.deliver(postDeleted.type, { id: second.id, author_id: author.id, was_draft: false, like_count: 1, collect_count: 0, comment_count: 0, images: [], video_url: null, cover_url: null });
    await waitFor('the deleted note to be gone', async () => titles(await search()).length === 0, 15_000, 100);
  });

  it('drops a kept answer for a user registered', async () => {
    await new Promise((resolve) => setTimeout(resolve, CHANGE_SHOWS_MS));
    expect((await search()).users).toEqual([]);
    const picnicker = await app.user({ nickname: '野餐少年' });
    await waitFor('the new user to be found', async () => (await search()).users.some((user) => user.id === picnicker.id), 15_000, 100);
  });
});
