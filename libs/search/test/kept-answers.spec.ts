import { randomUUID } from 'node:crypto';
import { Client } from '@elastic/elasticsearch';
import { postDeleted, postLiked, postUpdated, type PostSnapshot } from '@shiliu/contracts';
import { createLogger, PgListener } from '@shiliu/platform';
import { requireEnv, waitFor } from '@shiliu/platform/testing';
import { CHANGE_SHOWS_MS } from '../src/engine/cached-engine';
import { indexChangesChannelOf } from '../src/engine/index-changes';
import { SearchTestApp, type TestUser } from './search-test-app';

interface Found {
  posts: { data: { id: number; title: string; like_count: number }[]; pagination: { total: number } };
  users: { data: { id: number }[] };
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
  /**
   * Returns once the service has heard every index change made so far and Elasticsearch shows them: an answer asked
   * then is kept its whole window. The service hears the changes on its process's one LISTEN connection, in commit
   * order, so a marker sent now and heard on that connection comes after them all.
   */
  const changesShown = async () => {
    const marker = randomUUID();
    const channel = indexChangesChannelOf(app.schema);
    let heard: () => void = () => undefined;
    const markerHeard = new Promise<void>((resolve) => (heard = resolve));
    const url = (app.service.dataSource.options as { url: string }).url;
    const subscription = await PgListener.of(url, createLogger('test', 'silent')).subscribe(channel, { notice: (payload) => payload === marker && heard() });
    try {
      await app.query('SELECT pg_notify($1, $2)', [channel, marker]);
      await markerHeard;
    } finally {
      await subscription.close();
    }
    await new Promise((resolve) => setTimeout(resolve, CHANGE_SHOWS_MS));
  };

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
    // Once the first note's change has shown, an answer is kept the whole minute.
    await changesShown();
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
    await changesShown();
    expect((await search()).users.data).toEqual([]);
    const picnicker = await app.user({ nickname: '野餐少年' });
    await waitFor('the new user to be found', async () => (await search()).users.data.some((user) => user.id === picnicker.id), 15_000, 100);
  });
});
