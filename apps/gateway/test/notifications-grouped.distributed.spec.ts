import { randomUUID } from 'node:crypto';
import { waitFor } from '@shiliu/platform/testing';
import sharp from 'sharp';
import { type ProductStack, type StackUser, startProductStack } from './product-stack';

interface Group {
  type: number;
  title: string;
  day: string;
  target_id: number;
  actors: { user_id: string; nickname: string }[];
  actor_count: number;
  is_read: number;
  post_id: number | null;
  post_title: string | null;
  post_image: string | null;
}

type Counts = Record<'comments' | 'likes' | 'collections' | 'follows' | 'total' | 'count', number>;

/** `?group=target` and marking a group read, through the gateway, made by content's real like and collect calls over Kafka. */
describe('grouped notifications in distributed mode (real producers, Kafka, the gateway)', () => {
  let stack: ProductStack;
  let author: StackUser;
  let image: string;

  beforeAll(async () => {
    stack = await startProductStack('distributed', { RATE_LIMIT_PER_MINUTE: '1000000' });
    author = await stack.signUp('作者');
    const key = `images/grouped-e2e/${randomUUID()}.png`;
    await stack.storage.put(key, await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 255, g: 36, b: 66 } } }).png().toBuffer(), 'image/png');
    image = `/api/files/${key}`;
  }, 200_000);

  afterAll(async () => {
    await stack?.stop();
  });

  const ok = async <T>(method: string, path: string, token: string, body?: unknown): Promise<T> => {
    const answer = await stack.call<T>(method, path, body, token);
    expect([method, path, answer.status]).toEqual([method, path, 200]);
    return answer.body.data;
  };

  it('answers one group per note with the newest senders, and marks the whole group read', async () => {
    const note = await ok<{ id: number }>('POST', '/api/posts', author.token, { title: '图书馆的秋天', content: '<p>银杏</p>', category_id: 1, type: 1, images: [image], tags: [] });
    const fans: StackUser[] = [];
    for (const nickname of ['赵二', '王一', '陈默', '林小雨']) {
      const fan = await stack.signUp(nickname);
      fans.push(fan);
      await ok('POST', '/api/likes', fan.token, { target_type: 1, target_id: note.id });
    }
    await ok('POST', `/api/posts/${note.id}/collect`, fans[0].token);

    const likes = await waitFor('the four likes to reach notify as one group', async () => {
      const page = await ok<{ groups: Group[] }>('GET', '/api/notifications/likes?group=target', author.token);
      return page.groups[0]?.actor_count === 4 ? page : null;
    }, 60_000, 300);
    expect(likes).toMatchObject({ pagination: { page: 1, limit: 20, total: 1, pages: 1 } });
    const [group] = likes.groups;
    expect(group).toMatchObject({ type: 1, title: '赞了你的笔记', target_id: note.id, post_id: note.id, post_title: '图书馆的秋天', post_image: image, is_read: 0 });
    expect(group.actors.map((actor) => actor.nickname)).toEqual(['林小雨', '陈默', '王一']);
    expect(group.day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // The ungrouped call is as the spec defines it.
    expect((await ok<{ notifications: unknown[] }>('GET', '/api/notifications/likes', author.token)).notifications).toHaveLength(4);
    const collections = await waitFor('the collection to reach notify', async () => {
      const page = await ok<{ groups: Group[] }>('GET', '/api/notifications/collections?group=target', author.token);
      return page.groups.length === 1 ? page.groups : null;
    }, 30_000, 300);
    expect(collections[0]).toMatchObject({ type: 3, title: '收藏了你的笔记', actor_count: 1, actors: [{ user_id: fans[0].userId, nickname: '赵二' }] });

    const read = await stack.call<Counts>('PUT', '/api/notifications/groups/read', { type: 1, target_id: note.id, day: group.day }, author.token);
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ likes: 0, collections: 1, total: 1 });
    expect((await ok<{ groups: Group[] }>('GET', '/api/notifications/likes?group=target', author.token)).groups[0].is_read).toBe(1);

    const refused = await stack.call('PUT', '/api/notifications/groups/read', { type: 1, target_id: note.id, day: '昨天' }, author.token);
    expect(refused.body).toEqual({ code: 400, message: 'day 必须是 YYYY-MM-DD 格式的日期', data: null });
    expect((await stack.call('PUT', '/api/notifications/groups/read', { type: 1, target_id: note.id, day: group.day }, fans[0].token)).status).toBe(404);
    expect((await stack.call('GET', '/api/notifications/likes?group=day', undefined, author.token)).body).toEqual({ code: 400, message: 'group 只能是 target', data: null });
  }, 120_000);
});
