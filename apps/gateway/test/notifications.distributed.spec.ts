import { randomUUID } from 'node:crypto';
import { openEventStream, waitFor } from '@shiliu/platform/testing';
import sharp from 'sharp';
import { type ProductStack, type StackUser, startProductStack } from './product-stack';

interface Notification {
  id: number;
  type: number;
  from_user_id: string;
  post_id: number | null;
  comment_id: number | null;
  comment_content: string | null;
  parent_comment_content: string | null;
  post_image: string | null;
  [field: string]: unknown;
}

type Counts = Record<'comments' | 'likes' | 'collections' | 'follows' | 'total' | 'count', number>;
const tabs = ['comments', 'likes', 'collections', 'follows'] as const;

/**
 * Notify in distributed mode, two replicas in one consumer group: every notification type made by the call of the
 * service that really produces it (content, social), over Kafka, read through the gateway; the rules; and the live
 * badge pushed through the gateway, whichever replica consumed the like.
 */
describe('notifications in distributed mode (real producers, Kafka, two notify replicas)', () => {
  let stack: ProductStack;
  let author: StackUser;
  let fan: StackUser;
  let image: string;

  beforeAll(async () => {
    stack = await startProductStack('distributed', { RATE_LIMIT_PER_MINUTE: '1000000' }, { notifyReplicas: 2 });
    [author, fan] = [await stack.signUp('作者'), await stack.signUp('粉丝')];
    const key = `images/notify-e2e/${randomUUID()}.png`;
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
  const publish = (who: StackUser, content: string) =>
    ok<{ id: number }>('POST', '/api/posts', who.token, { title: '经过 Kafka 的笔记', content, category_id: 1, type: 1, images: [image], tags: [] });
  const comment = (who: StackUser, postId: number, content: string, parentId?: number) =>
    ok<{ id: number }>('POST', '/api/comments', who.token, { post_id: postId, content, ...(parentId ? { parent_id: parentId } : {}) });
  const all = async (who: StackUser) => {
    const found: Record<string, Notification[]> = {};
    for (const tab of tabs) found[tab] = (await ok<{ notifications: Notification[] }>('GET', `/api/notifications/${tab}`, who.token)).notifications;
    return found;
  };
  const typesOf = (found: Record<string, Notification[]>) => Object.fromEntries(tabs.map((tab) => [tab, found[tab].map((n) => n.type).sort()]));
  const counts = (who: StackUser) => ok<Counts>('GET', '/api/notifications/unread-count-by-type', who.token);

  it('makes all eight types from the real calls, once each, never to oneself, and cleans up after a deletion', async () => {
    const note = await publish(author, '<p>点个赞</p>');
    // Like, unlike and like again: one notification. The author's own like: none.
    await ok('POST', '/api/likes', fan.token, { target_type: 1, target_id: note.id });
    await ok('DELETE', '/api/likes', fan.token, { target_type: 1, target_id: note.id });
    await ok('POST', '/api/likes', fan.token, { target_type: 1, target_id: note.id });
    await ok('POST', '/api/likes', author.token, { target_type: 1, target_id: note.id });
    await ok('POST', `/api/posts/${note.id}/collect`, fan.token);
    const first = await comment(fan, note.id, '写得真好');
    // A reply that also mentions the one it answers: one notification, the reply.
    await comment(author, note.id, `[@粉丝:${fan.userId}] 谢谢`, first.id);
    const own = await comment(author, note.id, '补充一点');
    await ok('POST', '/api/likes', fan.token, { target_type: 2, target_id: own.id });
    await ok('POST', `/api/users/${author.userId}/follow`, fan.token);
    const fansNote = await publish(fan, `<p>推荐 [@作者:${author.userId}]</p>`);
    await comment(fan, fansNote.id, `[@作者:${author.userId}] 来看看`);

    const expected = { comments: [4, 7, 8], likes: [1, 2], collections: [3], follows: [6] };
    const found = await waitFor('the eight types to reach notify', async () => {
      const current = await all(author);
      return JSON.stringify(typesOf(current)) === JSON.stringify(expected) ? current : null;
    }, 60_000, 300);
    expect(found.likes.find((n) => n.type === 1)).toMatchObject({ from_user_id: fan.userId, post_id: note.id, post_image: image, title: '赞了你的笔记', from_nickname: '粉丝' });
    expect(found.likes.find((n) => n.type === 2)).toMatchObject({ comment_id: own.id, comment_content: '补充一点' });
    expect(found.comments.find((n) => n.type === 4)).toMatchObject({ comment_id: first.id, comment_content: '写得真好' });
    expect(found.comments.find((n) => n.type === 8)).toMatchObject({ post_id: fansNote.id });
    expect(found.follows[0]).toMatchObject({ from_user_id: fan.userId, follow_count: 1 });
    const replies = await waitFor('the reply to reach notify', async () => {
      const current = (await all(fan)).comments;
      return current.length > 0 ? current : null;
    }, 30_000, 300);
    expect(replies).toMatchObject([{ type: 5, from_user_id: author.userId, parent_comment_content: '写得真好' }]);
    expect(await counts(author)).toEqual({ comments: 3, likes: 2, collections: 1, follows: 1, total: 7, count: 7 });
    expect((await counts(fan)).total).toBe(1);

    // Someone else's notification is as good as missing.
    const theirs = found.likes[0].id;
    expect((await stack.call('PUT', `/api/notifications/${theirs}/read`, undefined, fan.token)).status).toBe(404);
    expect((await stack.call('DELETE', `/api/notifications/${theirs}`, undefined, fan.token)).status).toBe(404);

    // Deleting the comment takes its notification and its reply's with it.
    await ok('DELETE', `/api/comments/${first.id}`, fan.token);
    await waitFor('the deleted comment’s notifications to go', async () => (await counts(author)).comments === 2 && (await counts(fan)).total === 0, 30_000, 300);
    expect((await all(author)).comments.map((n) => n.type).sort()).toEqual([7, 8]);
  }, 120_000);

  // How soon the count arrives is a figure of bench/notify-latency; here, that each like's count arrives, and on both paths.
  it('pushes the new count after each like, through the gateway and on the other replica alike', async () => {
    const note = await publish(author, '<p>实时角标</p>');
    await waitFor('notify to know the note', async () => (await stack.call('GET', '/api/notifications/likes', undefined, author.token)).status === 200, 10_000);
    // Tickets are kept in Redis: one taken through the gateway opens a stream on whichever replica it is shown to.
    const ticket = async () => (await stack.call<{ ticket: string }>('POST', '/api/notifications/stream/ticket', undefined, author.token)).body.data.ticket;
    const viaGateway = await openEventStream(`${stack.base}/api/notifications/stream?ticket=${await ticket()}`, { 'x-forwarded-for': stack.clientAddress });
    const otherReplica = await openEventStream(`${stack.notifyUrls[1]}/api/notifications/stream?ticket=${await ticket()}`);
    try {
      const before = (await viaGateway.next()).likes;
      expect((await otherReplica.next()).likes).toBe(before);
      for (let round = 0; round < 3; round++) {
        const liker = await stack.signUp(`点赞者${round}`);
        await ok('POST', '/api/likes', liker.token, { target_type: 1, target_id: note.id });
        const [gatewayCounts, replicaCounts] = await Promise.all([viaGateway.next(), otherReplica.next()]);
        expect([gatewayCounts.likes, replicaCounts.likes]).toEqual([before + round + 1, before + round + 1]);
      }
    } finally {
      viaGateway.close();
      otherReplica.close();
    }
  }, 60_000);

  // Found from outside: a stream kept pushing counts 120 s after its student had logged out with the same token.
  it('ends the stream, on whichever replica holds it, when its student logs out', async () => {
    const student = await stack.signUp('退出者');
    const ticket = async () => (await stack.call<{ ticket: string }>('POST', '/api/notifications/stream/ticket', undefined, student.token)).body.data.ticket;
    const viaGateway = await openEventStream(`${stack.base}/api/notifications/stream?ticket=${await ticket()}`, { 'x-forwarded-for': stack.clientAddress });
    const otherReplica = await openEventStream(`${stack.notifyUrls[1]}/api/notifications/stream?ticket=${await ticket()}`);
    try {
      await Promise.all([viaGateway.next(), otherReplica.next()]);
      expect((await stack.call('POST', '/api/auth/logout', undefined, student.token)).status).toBe(200);
      await Promise.all([viaGateway.ended, otherReplica.ended]);
      expect((await stack.call('POST', '/api/notifications/stream/ticket', undefined, student.token)).status).toBe(401);
    } finally {
      viaGateway.close();
      otherReplica.close();
    }
  }, 60_000);
});
