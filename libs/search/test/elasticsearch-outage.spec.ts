import { postPublished } from '@shiliu/contracts';
import { requireEnv, TcpProxy } from '@shiliu/platform/testing';
import { SearchTestApp, type TestUser } from './search-test-app';

/**
 * Elasticsearch out of reach (a proxy in front of the shared cluster is cut): search answers 503 with a clear
 * message, events keep arriving and wait, and once it is back they are indexed without anyone acting.
 */
describe('search while Elasticsearch is down', () => {
  let proxy: TcpProxy;
  let app: SearchTestApp;
  let author: TestUser;

  beforeAll(async () => {
    const target = new URL(requireEnv('ELASTICSEARCH_URL'));
    proxy = await TcpProxy.start({ host: target.hostname, port: Number(target.port) });
    app = await SearchTestApp.start('elasticsearch', `http://${proxy.address}`);
    author = await app.user();
  });

  afterAll(async () => {
    await app?.close();
    await proxy?.close();
  });

  const titles = async (): Promise<string[]> => {
    const answer = await app.call<{ posts: { data: { title: string }[] } }>('GET', `/api/search?keyword=${encodeURIComponent('停电')}`);
    expect(answer.status).toBe(200);
    return answer.body.data.posts.data.map((card) => card.title);
  };

  it('answers 503 meanwhile and indexes what was published once it returns', async () => {
    await app.publish(author, { title: '宿舍停电之前' });
    expect(await titles()).toEqual(['宿舍停电之前']);

    proxy.cut();
    for (const path of [`/api/search?keyword=${encodeURIComponent('停电')}`, `/api/search/posts?keyword=a`, `/api/search/suggest?keyword=a`]) {
      const answer = await app.call('GET', path);
      expect([answer.status, answer.body.message]).toEqual([503, '搜索服务暂时不可用，请稍后重试']);
    }
    const delivered = app.bus.deliver(app.envelope(postPublished.type, { post: app.snapshot(author, { title: '停电时发布的笔记', created_at: new Date(Date.now() + 1000).toISOString() }) }));
    await new Promise((resolve) => setTimeout(resolve, 1500));

    proxy.restore();
    await delivered;
    expect(await titles()).toEqual(['停电时发布的笔记', '宿舍停电之前']);
  });
});
