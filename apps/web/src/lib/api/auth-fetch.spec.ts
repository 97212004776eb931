import { createAuthFetch, type TokenStore } from './auth-fetch';

function store(token: string | null, refreshToken: string | null) {
  const state = { token, refreshToken, expired: 0 };
  const tokens: TokenStore = {
    token: () => state.token,
    refreshToken: () => state.refreshToken,
    saveTokens: (pair) => {
      state.token = pair.access_token;
      state.refreshToken = pair.refresh_token;
    },
    expired: () => {
      state.expired += 1;
    },
  };
  return { state, tokens };
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('the token-carrying fetch', () => {
  it('sends the bearer token', async () => {
    const { tokens } = store('a1', 'r1');
    const seen: (string | null)[] = [];
    const authFetch = createAuthFetch(tokens, async (input) => {
      seen.push((input as Request).headers.get('Authorization'));
      return json(200, { code: 200, data: 1 });
    });
    await authFetch(new Request('http://app.test/api/posts'));
    expect(seen).toEqual(['Bearer a1']);
  });

  it('refreshes once on a 401 and retries the request with the new token and its body', async () => {
    const { state, tokens } = store('old', 'r1');
    const calls: string[] = [];
    const authFetch = createAuthFetch(tokens, async (input) => {
      const request = input as Request;
      const path = new URL(request.url).pathname;
      calls.push([path, request.headers.get('Authorization'), request.method === 'POST' ? await request.text() : null].filter(Boolean).join(' '));
      if (path === '/api/auth/refresh') return json(200, { code: 200, data: { tokens: { access_token: 'new', refresh_token: 'r2' } } });
      return request.headers.get('Authorization') === 'Bearer new' ? json(200, { code: 200, data: 'ok' }) : json(401, { code: 401 });
    });
    const answer = await authFetch(new Request('http://app.test/api/comments', { method: 'POST', body: '{"content":"hi"}' }));
    expect(answer.status).toBe(200);
    expect(calls).toEqual(['/api/comments Bearer old {"content":"hi"}', '/api/auth/refresh {"refresh_token":"r1"}', '/api/comments Bearer new {"content":"hi"}']);
    expect(state).toMatchObject({ token: 'new', refreshToken: 'r2', expired: 0 });
  });

  it('refreshes at the path it is given (the console refreshes an administrator token at its own)', async () => {
    const { state, tokens } = store('old', 'r1');
    const paths: string[] = [];
    const authFetch = createAuthFetch(
      tokens,
      async (input) => {
        const request = input as Request;
        const path = new URL(request.url).pathname;
        paths.push(path);
        if (path === '/api/auth/admin/refresh') return json(200, { code: 200, data: { tokens: { access_token: 'new', refresh_token: 'r2' } } });
        return request.headers.get('Authorization') === 'Bearer new' ? json(200, {}) : json(401, {});
      },
      '/api/auth/admin/refresh',
    );
    expect((await authFetch(new Request('http://app.test/api/admin/users'))).status).toBe(200);
    expect(paths).toEqual(['/api/admin/users', '/api/auth/admin/refresh', '/api/admin/users']);
    expect(state.token).toBe('new');
  });
  it('shares one refresh between concurrent 401s', async () => {
    const { tokens } = store('old', 'r1');
    let refreshes = 0;
    const authFetch = createAuthFetch(tokens, async (input) => {
      const request = input as Request;
      if (request.url.endsWith('/api/auth/refresh')) {
        refreshes += 1;
        await new Promise((resolve) => setTimeout(resolve, 10));
        return json(200, { code: 200, data: { tokens: { access_token: 'new', refresh_token: 'r2' } } });
      }
      return request.headers.get('Authorization') === 'Bearer new' ? json(200, {}) : json(401, {});
    });
    const answers = await Promise.all([authFetch(new Request('http://app.test/api/a')), authFetch(new Request('http://app.test/api/b'))]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect(refreshes).toBe(1);
  });

  it('ends the session when the refresh fails, without a second retry', async () => {
    const { state, tokens } = store('old', 'r1');
    let calls = 0;
    const authFetch = createAuthFetch(tokens, async () => {
      calls += 1;
      return json(401, { code: 401 });
    });
    const answer = await authFetch(new Request('http://app.test/api/auth/me'));
    expect(answer.status).toBe(401);
    expect(calls).toBe(2);
    expect(state.expired).toBe(1);
  });

  it('leaves calls without a token alone', async () => {
    const { state, tokens } = store(null, null);
    let calls = 0;
    const authFetch = createAuthFetch(tokens, async () => {
      calls += 1;
      return json(401, {});
    });
    expect((await authFetch(new Request('http://app.test/api/posts'))).status).toBe(401);
    expect(calls).toBe(1);
    expect(state.expired).toBe(0);
  });
});
