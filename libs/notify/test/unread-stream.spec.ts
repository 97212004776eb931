import { postLiked, postPublished } from '@shiliu/contracts';
import { openEventStream } from '@shiliu/platform/testing';
import { NotifyTestApp, postSnapshot } from './notify-test-app';

/** The live badge in one process: the counts on opening, again after each change, and heartbeats while idle. */
describe('unread stream (embedded)', () => {
  let app: NotifyTestApp;

  beforeAll(async () => {
    process.env.NOTIFY_STREAM_HEARTBEAT_MS = '300';
    app = await NotifyTestApp.start();
  });

  afterAll(async () => {
    delete process.env.NOTIFY_STREAM_HEARTBEAT_MS;
  });

  it('pushes the counts when they change, to a token given as a query parameter', async () => {
    const author = await app.user();
    const fan = await app.user();
    const post = postSnapshot(author);
    await app.deliver(postPublished.type, { post });
    const stream = await openEventStream(`${app.base}/api/notifications/stream?access_token=${author.token}`);
    try {
      expect(stream.contentType).toContain('text/event-stream');
      expect(await stream.next()).toMatchObject({ likes: 0, count: 0 });
      await app.deliver(postLiked.type, { post_id: post.id, post_author_id: author.id, user_id: fan.id, count: 1 });
      expect(await stream.next()).toMatchObject({ likes: 1, count: 1 });
      await stream.heartbeat();
    } finally {
      stream.close();
    }
  });

  it('after a burst of changes, arrives at the latest counts without ever going back', async () => {
    const author = await app.user();
    const fans = await Promise.all(Array.from({ length: 10 }, () => app.user()));
    const post = postSnapshot(author);
    await app.deliver(postPublished.type, { post });
    const stream = await openEventStream(`${app.base}/api/notifications/stream?access_token=${author.token}`);
    try {
      expect(await stream.next()).toMatchObject({ likes: 0 });
      await Promise.all(fans.map((fan, i) => app.deliver(postLiked.type, { post_id: post.id, post_author_id: author.id, user_id: fan.id, count: i + 1 })));
      const seen: number[] = [];
      while (seen.at(-1) !== fans.length) seen.push((await stream.next()).likes);
      expect(seen).toEqual([...seen].sort((a, b) => a - b));
    } finally {
      stream.close();
    }
  });

  it('ends the open streams when the service stops, so that stopping does not wait on them', async () => {
    const user = await app.user();
    const stream = await openEventStream(`${app.base}/api/notifications/stream?access_token=${user.token}`);
    await stream.next();
    const started = Date.now();
    const closed = app.close();
    await stream.ended;
    await closed;
    // Well inside the most a stopping service waits for calls in flight (5 s), which an open stream would use up.
    expect(Date.now() - started).toBeLessThan(5000);
    stream.close();
  });
});
