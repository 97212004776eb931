import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { postLiked, postPublished } from '@shiliu/contracts';
import { audienceClaim, TOKEN_ALGORITHM, TOKEN_ISSUER } from '@shiliu/platform';
import { openEventStream } from '@shiliu/platform/testing';
import { decodeJwt, importPKCS8, SignJWT } from 'jose';
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

  /** A single-use ticket for the stream, taken with the token as the web app takes it. */
  const ticket = async (token: string): Promise<string> => {
    const answer = await app.call<{ ticket: string; expires_in: number }>('POST', '/api/notifications/stream/ticket', { token });
    expect(answer.status).toBe(200);
    expect(answer.body.data.expires_in).toBe(30);
    return answer.body.data.ticket;
  };
  const streamUrl = async (token: string): Promise<string> => `${app.base}/api/notifications/stream?ticket=${await ticket(token)}`;

  it('pushes the counts when they change, to a stream opened with a ticket', async () => {
    const author = await app.user();
    const fan = await app.user();
    const post = postSnapshot(author);
    await app.deliver(postPublished.type, { post });
    const stream = await openEventStream(await streamUrl(author.token));
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
    const stream = await openEventStream(await streamUrl(author.token));
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

  it('opens one stream per ticket: a ticket used once opens nothing the second time', async () => {
    const user = await app.user();
    const url = await streamUrl(user.token);
    const stream = await openEventStream(url);
    try {
      await stream.next();
      expect((await fetch(url)).status).toBe(401);
      expect((await fetch(`${app.base}/api/notifications/stream?ticket=forged`)).status).toBe(401);
    } finally {
      stream.close();
    }
  });

  it('no longer opens a stream with an access token in the URL', async () => {
    const user = await app.user();
    const answer = await fetch(`${app.base}/api/notifications/stream?access_token=${user.token}`);
    expect(answer.status).toBe(400);
    expect(answer.headers.get('content-type')).not.toContain('text/event-stream');
  });

  // Found from outside: a stream kept pushing counts 120 s after its session had logged out.
  it('ends the stream within seconds when its session is revoked, as logout does', async () => {
    const user = await app.user();
    const stream = await openEventStream(await streamUrl(user.token));
    try {
      await stream.next();
      await app.runtime.revocations.revoke([decodeJwt(user.token).sid as string]);
      await stream.ended;
      expect((await app.call('POST', '/api/notifications/stream/ticket', { token: user.token })).status).toBe(401);
    } finally {
      stream.close();
    }
  });

  it('ends the stream when its access token expires, so the client comes back with a fresh one', async () => {
    const user = await app.user();
    const shortLived = await new SignJWT({ uid: user.userId, sid: randomUUID() })
      .setProtectedHeader({ alg: TOKEN_ALGORITHM })
      .setSubject(String(user.id))
      .setIssuer(TOKEN_ISSUER)
      .setAudience(audienceClaim.user)
      .setIssuedAt()
      .setExpirationTime('3s')
      .sign(await importPKCS8(app.runtime.keys.privateKeyPem, TOKEN_ALGORITHM));
    const stream = await openEventStream(await streamUrl(shortLived));
    await stream.next();
    await stream.ended;
    expect((await app.call('POST', '/api/notifications/stream/ticket', { token: shortLived })).status).toBe(401);
    stream.close();
  });

  it('ends the open streams when the service stops, so that stopping does not wait on them', async () => {
    const user = await app.user();
    let answer: ServerResponse | undefined;
    (app.service.app.getHttpServer() as Server).prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
      if (req.url?.startsWith('/api/notifications/stream')) answer = res;
    });
    const stream = await openEventStream(await streamUrl(user.token));
    await stream.next();
    // Stopping first waits for the calls in flight (5 s at most), then shuts the framework down: an open stream
    // would hold that wait to its end and still be open when the framework goes. Nest's application object is a proxy
    // that ignores assignments, so the stand-in is defined on the instance beneath it, which Nest calls it on.
    const nest = app.service.app;
    const shutDown = Object.getPrototypeOf(nest).close as (this: unknown) => Promise<void>;
    let atShutDown: { ended: boolean; closed: boolean } | undefined;
    Object.defineProperty(nest, 'close', {
      configurable: true,
      value(this: unknown) {
        atShutDown = { ended: answer!.writableEnded, closed: answer!.closed };
        return shutDown.call(this);
      },
    });
    const closed = app.close();
    await stream.ended;
    await closed;
    expect(atShutDown).toEqual({ ended: true, closed: true });
    stream.close();
  });
});
