import { SocialTestApp, type TestUser } from './social-test-app';

/** The calls refused: oneself, unknown users, no login, too many ids. */
describe('follows refused', () => {
  let app: SocialTestApp;
  let me: TestUser;
  let other: TestUser;

  beforeAll(async () => {
    app = await SocialTestApp.start();
    me = await app.user();
    other = await app.user();
  });

  afterAll(async () => {
    await app?.close();
  });

  it('never follows or unfollows oneself', async () => {
    for (const method of ['POST', 'DELETE']) {
      const answer = await app.call(method, `/api/users/${me.userId}/follow`, { token: me.token });
      expect(answer.status).toBe(400);
      expect(answer.body.message).toBe(method === 'POST' ? '不能关注自己' : '不能取消关注自己');
    }
    expect(await app.query(`SELECT 1 FROM "follows"`)).toEqual([]);
  });

  it('answers 404 for a user it does not know, on every call that names one', async () => {
    for (const [method, path] of [
      ['POST', '/follow'],
      ['DELETE', '/follow'],
      ['GET', '/follow-status'],
      ['GET', '/following'],
      ['GET', '/followers'],
      ['GET', '/mutual-follows'],
      ['GET', '/stats'],
      ['GET', '/card'],
    ]) {
      const answer = await app.call(method, `/api/users/nobody_here${path}`, { token: me.token });
      expect([method, path, answer.status, answer.body.message]).toEqual([method, path, 404, '用户不存在']);
    }
  });

  it('needs a login to follow or unfollow', async () => {
    for (const method of ['POST', 'DELETE']) {
      const answer = await app.call(method, `/api/users/${other.userId}/follow`);
      expect(answer.status).toBe(401);
    }
    expect((await app.call('POST', `/api/users/${other.userId}/follow`, { token: 'not-a-token' })).status).toBe(401);
    expect(await app.query(`SELECT 1 FROM "follows"`)).toEqual([]);
  });

  it('takes at most 100 users in one follow-status call, and at least one', async () => {
    const ids = Array.from({ length: 101 }, (_, i) => `u${i}`).join(',');
    const over = await app.call('GET', `/api/users/follow-status?ids=${ids}`, { token: me.token });
    expect(over.status).toBe(400);
    expect(over.body.message).toContain('ids 最多 100 个');
    expect((await app.call('GET', '/api/users/follow-status', { token: me.token })).status).toBe(400);
    expect((await app.call('GET', '/api/users/follow-status?ids=', { token: me.token })).status).toBe(400);
  });

  it('refuses a page size over 100 and a page below 1 on the lists', async () => {
    for (const kind of ['following', 'followers', 'mutual-follows']) {
      expect((await app.call('GET', `/api/users/${other.userId}/${kind}?limit=101`)).status).toBe(400);
      expect((await app.call('GET', `/api/users/${other.userId}/${kind}?page=0`)).status).toBe(400);
    }
  });
});
