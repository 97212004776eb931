/** What the token-carrying fetch needs from the session; injected so that it unit-tests without a browser. */
export interface TokenStore {
  token(): string | null;
  refreshToken(): string | null;
  saveTokens(tokens: { access_token: string; refresh_token: string }): void;
  /** The refresh failed too: the session is over (public-side.md §8, 会话已过期). */
  expired(): void;
}

const REFRESH_PATH = '/api/auth/refresh';

/** A call's own settings beside its request. */
export interface FetchOptions {
  /** How long to wait for the answer, in ms; the fetch's default otherwise. */
  timeout?: number;
}

export type Fetcher = (input: Request, options?: FetchOptions) => Promise<Response>;

/**
 * A fetch that sends the bearer token and, on a 401, refreshes the token once and retries the request once.
 * Concurrent 401s share one refresh; a failed refresh ends the session. Calls without a token, and the
 * refresh call itself, pass through untouched. The console refreshes its administrator token at its own path.
 */
export function createAuthFetch(store: TokenStore, base: Fetcher = (input) => fetch(input), refreshPath = REFRESH_PATH): Fetcher {
  let refreshing: Promise<string | null> | null = null;

  const refresh = (origin: string): Promise<string | null> => {
    refreshing ??= (async () => {
      const refreshToken = store.refreshToken();
      if (!refreshToken) return null;
      try {
        const answer = await base(new Request(new URL(refreshPath, origin), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ refresh_token: refreshToken }) }));
        if (!answer.ok) return null;
        const body = (await answer.json()) as { data?: { tokens?: { access_token: string; refresh_token: string } } };
        const tokens = body.data?.tokens;
        if (!tokens) return null;
        store.saveTokens(tokens);
        return tokens.access_token;
      } catch {
        return null;
      }
    })().finally(() => {
      refreshing = null;
    });
    return refreshing;
  };

  return async (input, options) => {
    const token = store.token();
    const retry = token ? input.clone() : null;
    if (token && !input.headers.has('Authorization')) input.headers.set('Authorization', `Bearer ${token}`);
    const answer = await base(input, options);
    if (answer.status !== 401 || !retry || new URL(input.url).pathname === refreshPath) return answer;
    const fresh = await refresh(input.url);
    if (!fresh) {
      store.expired();
      return answer;
    }
    retry.headers.set('Authorization', `Bearer ${fresh}`);
    const second = await base(retry, options);
    if (second.status === 401) store.expired();
    return second;
  };
}
