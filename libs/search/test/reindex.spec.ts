import { Client } from '@elastic/elasticsearch';
import { postDeleted } from '@shiliu/contracts';
import { requireEnv } from '@shiliu/platform/testing';
import { Client as PgClient } from 'pg';
import { indexChangesChannelOf } from '../src/engine/index-changes';
import { reindex } from '../src/engine/reindex';
import { SearchTestApp, type TestUser } from './search-test-app';

/** The re-index command's work: new indices filled from the read model and swapped in while search keeps answering. */
describe('re-index', () => {
  let app: SearchTestApp;
  let client: Client;
  let author: TestUser;

  beforeAll(async () => {
    app = await SearchTestApp.start('elasticsearch');
    client = new Client({ node: requireEnv('ELASTICSEARCH_URL') });
    author = await app.user({ user_id: 'rebuilder', nickname: '重建者' });
  });

  afterAll(async () => {
    await client?.close();
    await app?.close();
  });

  const titles = async (): Promise<string[]> => {
    const answer = await app.call<{ posts: { data: { title: string }[] } }>('GET', `/api/search?keyword=${encodeURIComponent('重建')}`);
    return answer.body.data.posts.data.map((card) => card.title).sort();
  };

  it('swaps in rebuilt indices without a failed search, keeping what changed during the copy', async () => {
    const first = await app.publish(author, { title: '重建索引一' });
    await app.publish(author, { title: '重建索引二' });
    await app.publish(author, { title: '重建索引三' });

    const statuses: number[] = [];
    let searching = true;
    const searches = (async () => {
      while (searching) statuses.push((await app.call('GET', `/api/search?keyword=${encodeURIComponent('重建')}`)).status);
    })();
    const progress: string[] = [];
    const options = {
      client,
      dataSource: app.service.dataSource,
      prefix: app.prefix,
      analyzer: 'standard',
      settleMs: 0,
      progress: (kind: string, done: number, total: number) => progress.push(`${kind} ${done}/${total}`),
    };
    const posts = await reindex('posts', {
      ...options,
      beforeSwap: async () => {
        await app.publish(author, { title: '重建期间发布' });
        await app.deliver(postDeleted.type, { id: first.id, author_id: author.id, was_draft: false, like_count: 0, collect_count: 0, comment_count: 0, images: [], video_url: null, cover_url: null });
      },
    });
    const users = await reindex('users', options);
    searching = false;
    await searches;

    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    expect(progress).toEqual(['posts 0/3', 'posts 3/3', 'users 0/1', 'users 1/1']);
    expect(Object.keys(await client.indices.getAlias({ name: `${app.prefix}-posts` }))).toEqual([posts]);
    expect(Object.keys(await client.indices.getAlias({ name: `${app.prefix}-users` }))).toEqual([users]);
    expect(await client.indices.exists({ index: `${app.prefix}-posts-1` })).toBe(false);
    expect(await titles()).toEqual(['重建期间发布', '重建索引三', '重建索引二'].sort());
    const found = await app.call<{ users: { data: { user_id: string }[] } }>('GET', '/api/search?keyword=rebuilder&type=users');
    expect(found.body.data.users.data.map((user) => user.user_id)).toEqual(['rebuilder']);
  });

  it('announces the rebuilt index, so that no replica keeps answers from the old one', async () => {
    const listener = new PgClient({ connectionString: requireEnv('DATABASE_URL') });
    await listener.connect();
    const heard: string[] = [];
    listener.on('notification', (message) => heard.push(message.channel));
    await listener.query(`LISTEN "${indexChangesChannelOf(app.schema)}"`);
    try {
      await reindex('users', { client, dataSource: app.service.dataSource, prefix: app.prefix, analyzer: 'standard', settleMs: 0 });
      await listener.query('SELECT 1');
      expect(heard).toEqual([indexChangesChannelOf(app.schema)]);
    } finally {
      await listener.end();
    }
  });
});
