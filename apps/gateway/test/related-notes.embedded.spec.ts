import { type ProductStack, type StackUser, startProductStack } from './product-stack';

interface Card {
  id: number;
  title: string;
  liked: boolean;
}

/** GET /posts/{id}/related through the gateway of the embedded product: with and without a token, and its refusals. */
describe('related notes through the gateway (embedded)', () => {
  let stack: ProductStack;
  let author: StackUser;
  let reader: StackUser;

  beforeAll(async () => {
    stack = await startProductStack('embedded', { RATE_LIMIT_PER_MINUTE: '1000000' });
    [author, reader] = [await stack.signUp('柳絮'), await stack.signUp('小满')];
  }, 200_000);

  afterAll(async () => {
    await stack?.stop();
  });

  const image = async () => {
    const key = `images/related-e2e/${Date.now()}-${Math.random().toString(36).slice(2)}.png`;
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');
    await stack.storage.put(key, png, 'image/png');
    return `/api/files/${key}`;
  };
  const publish = async (title: string, tags: string[], category_id = 1) => {
    const answer = await stack.call<{ id: number }>('POST', '/api/posts', { title, content: '<p>正文</p>', category_id, type: 1, images: [await image()], tags }, author.token);
    expect(answer.status).toBe(200);
    return answer.body.data.id;
  };

  it('answers the closest notes, with the viewer’s likes when a token comes and without one', async () => {
    const note = await publish('考研数学第一轮', ['考研', '数学'], 1);
    const close = await publish('考研数学真题', ['考研', '数学'], 5);
    const far = await publish('只是同一作者', [], 5);
    expect((await stack.call('POST', '/api/likes', { target_type: 1, target_id: close }, reader.token)).status).toBe(200);

    const anonymous = await stack.call<{ posts: Card[] }>('GET', `/api/posts/${note}/related`);
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.data.posts.map((post) => post.id)).toEqual([close, far]);
    expect(anonymous.body.data.posts[0].liked).toBe(false);
    const signedIn = await stack.call<{ posts: Card[] }>('GET', `/api/posts/${note}/related?limit=1`, undefined, reader.token);
    expect(signedIn.body.data.posts).toMatchObject([{ id: close, title: '考研数学真题', liked: true }]);

    expect((await stack.call('GET', `/api/posts/${note}/related?limit=21`)).body).toEqual({ code: 400, message: 'limit 必须是 1-20 的整数', data: null });
    expect((await stack.call('GET', '/api/posts/99999999/related')).body).toEqual({ code: 404, message: '资源不存在', data: null });
  }, 60_000);
});
