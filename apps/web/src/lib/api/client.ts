import createClient from 'openapi-fetch';
import { useSession } from '../session';
import { toast } from '../toast';
import { createAuthFetch } from './auth-fetch';
import type { paths } from './schema';

export type * from './types';

/** The spec's global messages by status (public-side.md §8). */
export const MESSAGES = {
  expired: '会话已过期，已自动退出登录',
  network: '网络连接失败，请检查网络设置',
  forbidden: '禁止访问',
  missing: '资源不存在',
  server: '服务器内部错误',
} as const;

/** The fetch every call goes through: bearer token, one refresh and retry on a 401, the expired session. */
export const authFetch = createAuthFetch({
  token: () => useSession.getState().token,
  refreshToken: () => useSession.getState().refreshToken,
  saveTokens: (tokens) => useSession.getState().setTokens(tokens),
  expired: () => {
    if (!useSession.getState().token) return;
    useSession.getState().signOut();
    toast.error(MESSAGES.expired);
    window.history.replaceState(null, '', '/explore');
    window.dispatchEvent(new PopStateEvent('popstate'));
  },
});

/**
 * The one API client: its paths, parameters and answers are typed by the generated schema, so a field renamed
 * on the server fails this app's typecheck.
 */
export const api = createClient<paths>({ baseUrl: '/', fetch: authFetch });

/** A failed call, with the message to show and its status (0 when nothing answered). */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

function messageFor(status: number, serverMessage: string | undefined): string {
  if (status === 403) return MESSAGES.forbidden;
  if (status === 404) return serverMessage || MESSAGES.missing;
  if (status >= 500) return MESSAGES.server;
  return serverMessage || `请求失败 (${status})`;
}

/** Unwraps the envelope `{code, message, data}` of a typed call: its data, or an ApiError with the spec's message. */
export async function call<T>(request: Promise<{ data?: { data?: T; code: number }; error?: unknown; response: Response }>): Promise<T> {
  let answer: Awaited<typeof request>;
  try {
    answer = await request;
  } catch {
    throw new ApiError(MESSAGES.network, 0);
  }
  if (answer.data !== undefined && answer.response.ok) return answer.data.data as T;
  const serverMessage = (answer.error as { message?: string } | undefined)?.message;
  throw new ApiError(messageFor(answer.response.status, serverMessage), answer.response.status);
}

/** A multipart upload through the media service (openapi-fetch does not stream FormData progress; this is plain). */
export async function upload<T>(path: '/api/upload/image' | '/api/upload/single', form: FormData): Promise<T> {
  let answer: Response;
  try {
    answer = await authFetch(new Request(new URL(path, location.origin), { method: 'POST', body: form }));
  } catch {
    throw new ApiError(MESSAGES.network, 0);
  }
  const body = (await answer.json().catch(() => ({}))) as { data?: T; message?: string };
  if (!answer.ok || body.data === undefined) throw new ApiError(messageFor(answer.status, body.message), answer.status);
  return body.data;
}

export const DEFAULT_AVATAR = '/default-avatar.svg';
export const NOTE_PLACEHOLDER = '/placeholder.svg';
