import { randomUUID } from 'node:crypto';
import { waitFor } from '@shiliu/platform/testing';
import sharp from 'sharp';
import { type ProductStack, type RunMode, startProductStack, type StackUser } from './product-stack';

type Stats = Record<'post_count' | 'like_count' | 'collect_count' | 'likes_and_collects', number>;

/**
 * What an administrator does in the back office reaches the other services exactly as the author's own action
 * would: through the same events, across the in-process bus or Kafka. Every assertion waits for its effect.
 */
describe.each<RunMode>(['embedded', 'distributed'])('the admin API across services (%s mode)', (mode) => {
  let stack: ProductStack;
  let admin: string;
  let author: StackUser;
  let fan: StackUser;

  const ok = async <T>(method: string, path: string, body?: unknown, token?: string): Promise<T> => {
    const answer = await stack.call<T>(method, path, body, token);
    if (answer.status !== 200) throw new Error(`${method} ${path}: ${JSON.stringify(answer.body)}`);
    return answer.body.data;
  };
  const stats = (user: StackUser) => ok<Stats>('GET', `/api/users/${user.userId}/stats`);
  const publish = async (title: string, by: StackUser = author): Promise<number> => {
    const key = `images/admin-e2e/${randomUUID()}.png`;
    await stack.storage.put(key, await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 90, g: 30, b: 160 } } }).png().toBuffer(), 'image/png');
    const note = await ok<{ id: number }>('POST', '/api/posts', { title, content: '<p>正文</p>', category_id: 1, type: 1, images: [`/api/files/${key}`], tags: ['后台'] }, by.token);
    return note.id;
  };

  beforeAll(async () => {
    stack = await startProductStack(mode, { RATE_LIMIT_PER_MINUTE: '1000000' });
    admin = (await ok<{ tokens: { access_token: string } }>('POST', '/api/auth/admin/login', { username: 'admin', password: stack.adminPassword })).tokens.access_token;
    author = await stack.signUp('后台作者');
    fan = await stack.signUp('后台粉丝');
    await waitFor('content to know both students', async () => (await stack.call('GET', `/api/users/${fan.userId}/posts`)).status === 200 && (await stack.call('GET', `/api/users/${author.userId}/posts`)).status === 200);
  }, 200_000);

  afterAll(async () => {
    await stack?.stop();
  });

  it('an admin deleting a note updates social\'s counters, notify\'s notifications and the search index as the author\'s deletion would', async () => {
    const title = `后台删除${randomUUID().slice(0, 6)}`;
    const id = await publish(title);
    await ok('POST', '/api/likes', { target_type: 1, target_id: id }, fan.token);
    await ok('POST', `/api/posts/${id}/collect`, undefined, fan.token);
    await ok('POST', '/api/comments', { post_id: id, content: '好看' }, fan.token);
    await waitFor('social to count the note and its reactions', async () => {
      const counted = await stats(author);
      return counted.post_count === 1 && counted.likes_and_collects === 2;
    });
    await waitFor('notify to tell the author', async () => (await ok<{ notifications: unknown[] }>('GET', '/api/notifications/likes', undefined, author.token)).notifications.length === 1);
    await waitFor('search to index the note', async () => (await ok<{ posts: unknown[] }>('GET', `/api/search/posts?keyword=${encodeURIComponent(title)}`)).posts.length === 1);

    expect((await stack.call('DELETE', `/api/admin/posts/${id}`, undefined, author.token)).status).toBe(403);
    await ok('DELETE', `/api/admin/posts/${id}`, undefined, admin);

    await waitFor('social to uncount the note and its reactions', async () => {
      const counted = await stats(author);
      return counted.post_count === 0 && counted.likes_and_collects === 0;
    });
    await waitFor('notify to drop the note\'s notifications', async () => {
      const likes = await ok<{ notifications: unknown[] }>('GET', '/api/notifications/likes', undefined, author.token);
      const comments = await ok<{ notifications: unknown[] }>('GET', '/api/notifications/comments', undefined, author.token);
      return likes.notifications.length === 0 && comments.notifications.length === 0;
    });
    await waitFor('search to forget the note', async () => (await ok<{ posts: unknown[] }>('GET', `/api/search/posts?keyword=${encodeURIComponent(title)}`)).posts.length === 0);
    const log = await waitFor('the audit log to record the deletion', async () => {
      const page = await ok<{ data: { admin_name: string; service: string; target_ids: number[] }[] }>('GET', '/api/admin/monitor/admin-actions?entity=posts&method=DELETE', undefined, admin);
      return page.data.find((entry) => entry.target_ids.includes(id)) ?? null;
    });
    expect(log).toMatchObject({ admin_name: 'admin', service: expect.stringMatching(/^content/) });
  }, 120_000);

  it('bulk-deleting two comments takes them off the note and out of the author\'s notifications', async () => {
    const id = await publish('评论将被删除');
    const one = await ok<{ id: number }>('POST', '/api/comments', { post_id: id, content: '第一条' }, fan.token);
    const two = await ok<{ id: number }>('POST', '/api/comments', { post_id: id, content: '第二条' }, fan.token);
    await waitFor('notify to tell the author of both comments', async () => (await ok<{ notifications: unknown[] }>('GET', '/api/notifications/comments', undefined, author.token)).notifications.length === 2);
    expect(await ok('DELETE', '/api/admin/comments', { ids: [one.id, two.id] }, admin)).toEqual({ deletedCount: 2 });
    expect((await ok<{ comment_count: number }>('GET', `/api/posts/${id}?skipViewCount=true`)).comment_count).toBe(0);
    await waitFor('notify to drop both comment notifications', async () => (await ok<{ notifications: unknown[] }>('GET', '/api/notifications/comments', undefined, author.token)).notifications.length === 0);
  }, 120_000);

  it('approving one application shows the badge everywhere; rejecting another keeps the reason', async () => {
    const personal = { real_name: '林小雨', id_card: '11010519491231002X', occupation: '学生', reason: '校园摄影博主' };
    await ok('POST', '/api/users/verification', { type: 2, content: personal }, fan.token);
    await ok('POST', '/api/users/verification', { type: 2, content: personal }, author.token);
    const pending = await ok<{ data: { id: number; user_display_id: string; content: { id_card: string } }[] }>('GET', '/api/admin/audit?status=0', undefined, admin);
    expect(pending.data.map((row) => row.content.id_card)).toEqual(['110105********002X', '110105********002X']);
    const application = (userId: string) => pending.data.find((row) => row.user_display_id === userId)!.id;
    await ok('PUT', `/api/admin/audit/${application(fan.userId)}/approve`, undefined, admin);
    await ok('PUT', `/api/admin/audit/${application(author.userId)}/reject`, { reject_reason: '证件照片不清晰' }, admin);

    expect((await ok<{ verified: number }>('GET', `/api/users/${fan.userId}`)).verified).toBe(2);
    await waitFor('social\'s card to show the badge', async () => (await ok<{ verified: number }>('GET', `/api/users/${fan.userId}/card`)).verified === 2);
    const fanNote = await publish('认证之后', fan);
    await waitFor('content\'s note to show the author\'s badge', async () => (await ok<{ author_verified: number }>('GET', `/api/posts/${fanNote}?skipViewCount=true`)).author_verified === 2);
    expect(await ok('GET', '/api/users/verification/status', undefined, author.token)).toEqual([expect.objectContaining({ status: 2, reject_reason: '证件照片不清晰' })]);
    expect((await ok<{ verified: number }>('GET', `/api/users/${author.userId}/card`)).verified).toBe(0);
  }, 120_000);
});
